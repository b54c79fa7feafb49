//! "What the model sees": the last request of each conversation, kept by
//! its task as the request leaves (see `actor/sent.rs`), and corrected if
//! the provider had to send it again without tools.

use crate::{Runtime, RuntimeError};
use braid_protocol::{ContextId, SentRequest};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Each conversation's last request as sent.
#[derive(Clone, Default)]
pub(crate) struct SentLog(Arc<Mutex<HashMap<ContextId, SentRequest>>>);

impl SentLog {
    fn lock(&self) -> MutexGuard<'_, HashMap<ContextId, SentRequest>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn record(&self, id: &ContextId, sent: SentRequest) {
        self.lock().insert(id.clone(), sent);
    }

    /// The request went again without tools: the model saw none.
    pub(crate) fn tools_dropped(&self, id: &ContextId) {
        if let Some(sent) = self.lock().get_mut(id) {
            sent.tools_dropped = true;
        }
    }

    pub(crate) fn forget(&self, id: &ContextId) {
        self.lock().remove(id);
    }

    /// One conversation's entry, for the task streaming its request.
    pub(crate) fn entry(&self, id: &ContextId) -> SentEntry {
        SentEntry { log: self.clone(), context: id.clone() }
    }
}

pub(crate) struct SentEntry {
    log: SentLog,
    context: ContextId,
}

impl SentEntry {
    pub(crate) fn tools_dropped(&self) {
        self.log.tools_dropped(&self.context);
    }
}

impl Runtime {
    /// The conversation's last request as it went to the model; `None`
    /// when none went since the app started.
    pub async fn sent_request(&self, id: &ContextId) -> Result<Option<SentRequest>, RuntimeError> {
        // Asked of the task, so an unknown conversation is an error.
        self.peek(id).await?;
        Ok(self.shared.sent.lock().get(id).cloned())
    }
}
