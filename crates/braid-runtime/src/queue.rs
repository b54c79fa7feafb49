//! The messages waiting in a conversation's queue: taken back, or changed
//! before they are sent (text, place, sent now).

use crate::{Runtime, RuntimeError};
use braid_core::Event;
use braid_protocol::{ContextId, MessageId, QueueChange};

impl Runtime {
    pub async fn unqueue(&self, id: &ContextId, message_id: MessageId) -> Result<(), RuntimeError> {
        self.command(id, Event::Unqueue { message_id }).await.map(drop)
    }

    pub async fn edit_queued(
        &self,
        id: &ContextId,
        message_id: MessageId,
        change: QueueChange,
    ) -> Result<(), RuntimeError> {
        self.command(id, Event::EditQueued { message_id, change }).await.map(drop)
    }
}
