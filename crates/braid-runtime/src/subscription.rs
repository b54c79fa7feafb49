//! A client's view of one context: the snapshot taken when it subscribed,
//! then that context's events.

use braid_protocol::{BraidEvent, ContextId};
use tokio::sync::broadcast;

/// Events of one context, with the snapshot taken when subscribing.
pub struct Subscription {
    pub(crate) context: ContextId,
    pub(crate) rx: broadcast::Receiver<BraidEvent>,
}

impl Subscription {
    /// The next event of this context. `Err(n)` means `n` events were
    /// missed (a slow reader): take a new snapshot.
    pub async fn recv(&mut self) -> Option<Result<BraidEvent, u64>> {
        loop {
            match self.rx.recv().await {
                Ok(e) if e.context_id() == &self.context => return Some(Ok(e)),
                Ok(_) => continue,
                Err(broadcast::error::RecvError::Lagged(n)) => return Some(Err(n)),
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}
