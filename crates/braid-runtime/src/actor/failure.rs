//! Telling the context's clients: a write that failed (the context stops,
//! nothing stored is lost), and notices from the context's tasks.

use super::ContextActor;
use braid_protocol::{
    BraidEvent, ContextStatus, ContextUpdate, ErrorCode, FailureCode, Notice, QueuedPreview, UpdateMetadata, WireError,
};

impl ContextActor {
    /// A write failed (disk full, database locked or read-only): no effect
    /// of the transition ran. Everything in flight stops and the context
    /// shows Failed with the reason; what was stored before stays, and
    /// Retry or a new message carries on once the disk takes writes again.
    pub(super) fn storage_failed(
        &mut self,
        error: &braid_store::StoreError,
        now: braid_protocol::Timestamp,
    ) -> WireError {
        tracing::error!(context = %self.meta.id, %error, "could not save the context");
        self.stop_tasks();
        let message = format!("Could not save the conversation ({error}). Nothing stored was lost; free disk space or close what locks the database, then retry.");
        let previous = self.state.status.clone();
        self.state.request = None;
        self.state.pending = None;
        self.state.round = None;
        self.state.rereading = None;
        self.state.status = ContextStatus::Failed {
            error_code: FailureCode::StorageFailed,
            message: message.clone(),
            recoverable: true,
        };
        let update = ContextUpdate {
            context_id: self.meta.id.clone(),
            current_state: self.state.status.clone(),
            previous_state: (previous.kind() != self.state.status.kind()).then_some(previous),
            message: None,
            timestamp: now,
            metadata: UpdateMetadata {
                queue: self.state.queue.iter().map(|q| QueuedPreview::of(q.id, &q.body)).collect(),
                notice: Some(Notice::from_error(ErrorCode::Storage, message.clone())),
                team: self.state.route.visible().map(Box::new),
                sub_agents: self.state.agents.clone().map(Box::new),
            },
        };
        let _ = self.shared.events.send(BraidEvent::ContextUpdate(update));
        WireError::new(ErrorCode::Storage, message)
    }

    pub(super) fn emit_notice(&self, notice: Notice, now: braid_protocol::Timestamp) {
        let update = ContextUpdate {
            context_id: self.meta.id.clone(),
            current_state: self.state.status.clone(),
            previous_state: None,
            message: None,
            timestamp: now,
            metadata: UpdateMetadata {
                queue: self.state.queue.iter().map(|q| QueuedPreview::of(q.id, &q.body)).collect(),
                notice: Some(notice),
                team: self.state.route.visible().map(Box::new),
                sub_agents: self.state.agents.clone().map(Box::new),
            },
        };
        let _ = self.shared.events.send(BraidEvent::ContextUpdate(update));
    }
}
