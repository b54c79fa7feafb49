//! Where a sub-agent's end is heard: the child's context tells it here,
//! the parent's supervisor (`subagents.rs`) waits for it.

use braid_protocol::{ChildOutcome, ContextId};
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use tokio::sync::oneshot;

/// Where a child's end is heard: the child's context tells it here
/// (`ChildEnded`), its supervisor waits for it.
#[derive(Default)]
pub(crate) struct Children {
    waiting: Mutex<HashMap<ContextId, oneshot::Sender<(ChildOutcome, u64)>>>,
}

impl Children {
    pub(crate) fn expect(&self, id: &ContextId) -> oneshot::Receiver<(ChildOutcome, u64)> {
        let (tx, rx) = oneshot::channel();
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner).insert(id.clone(), tx);
        rx
    }

    pub(crate) fn forget(&self, id: &ContextId) {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner).remove(id);
    }

    /// A child ended (its core said so); nobody waits after a restart.
    pub(crate) fn ended(&self, id: &ContextId, outcome: ChildOutcome, tokens: u64) {
        if let Some(tx) = self.waiting.lock().unwrap_or_else(PoisonError::into_inner).remove(id) {
            let _ = tx.send((outcome, tokens));
        }
    }
}
