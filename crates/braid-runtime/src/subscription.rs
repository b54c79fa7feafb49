//! A client's view of one context (the snapshot taken when it subscribed,
//! then that context's events), or of every context's changes of state
//! (what a conversation list shows).

use braid_protocol::{BraidEvent, ContextId};
use tokio::sync::broadcast;

/// Events of one context, with the snapshot taken when subscribing; or
/// every context's changes of state.
pub struct Subscription {
    pub(crate) only: Only,
    pub(crate) rx: broadcast::Receiver<BraidEvent>,
}

pub(crate) enum Only {
    Context(ContextId),
    States,
}

impl crate::Runtime {
    /// Every event of every context (for a global event stream).
    pub fn subscribe_all(&self) -> broadcast::Receiver<BraidEvent> {
        self.shared.events.subscribe()
    }

    /// Every context's changes of state (busy, waiting for approval,
    /// failed, idle again): the conversation list's live feed.
    pub fn subscribe_states(&self) -> Subscription {
        Subscription { only: Only::States, rx: self.shared.events.subscribe() }
    }
}

impl Subscription {
    /// The next event. `Err(n)` means `n` events were missed (a slow
    /// reader): take a new snapshot (or list).
    pub async fn recv(&mut self) -> Option<Result<BraidEvent, u64>> {
        loop {
            match self.rx.recv().await {
                Ok(e) if self.wanted(&e) => return Some(Ok(e)),
                Ok(_) => continue,
                Err(broadcast::error::RecvError::Lagged(n)) => return Some(Err(n)),
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }

    fn wanted(&self, e: &BraidEvent) -> bool {
        match &self.only {
            Only::Context(id) => e.context_id() == id,
            Only::States => e.state_change().is_some(),
        }
    }
}
