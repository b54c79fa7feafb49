//! Telling the context's clients: a write that failed (the context stops,
//! nothing stored is lost), and notices from the context's tasks.

use super::ContextActor;
use braid_protocol::{BraidEvent, ErrorCode, Notice, WireError};

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
        tracing::error!(context = %self.ctx.meta.id, %error, "could not save the context");
        self.stop_tasks();
        let message = format!("Could not save the conversation ({error}). Nothing stored was lost; free disk space or close what locks the database, then retry.");
        let event = self.ctx.stop_for_storage(message.clone(), now);
        let _ = self.shared.events.send(event);
        WireError::new(ErrorCode::Storage, message)
    }

    pub(super) fn emit_notice(&self, notice: Notice, now: braid_protocol::Timestamp) {
        let update = self.ctx.update(None, Some(notice), now);
        let _ = self.shared.events.send(BraidEvent::ContextUpdate(update));
    }
}
