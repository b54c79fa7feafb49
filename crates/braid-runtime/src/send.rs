//! Sending a message. The answer comes once the message is in the
//! conversation, or refused with the reason: a message the pipeline
//! refuses (a bad `@` reference, an unreadable image) is an error to the
//! caller, never a receipt for something that was not stored. A queued
//! message is answered at once: its pipeline runs when its turn comes.

use crate::{Runtime, RuntimeError};
use braid_core::machine::{Event, Reply};
use braid_protocol::{
    BraidEvent, ContextId, ContextStatus, ErrorCode, MessageChange, NewMessage, NoticeCode, SendReceipt, WireError,
};
use tokio::sync::broadcast;

impl Runtime {
    pub async fn send_message(
        &self,
        id: &ContextId,
        message: NewMessage,
        queue_if_busy: bool,
    ) -> Result<SendReceipt, RuntimeError> {
        // Listening before sending: no event of this message can be missed.
        let mut events = self.subscribe_all();
        let event = Event::UserMessage {
            body: message.body,
            queue_if_busy,
            force_tool: message.force_tool,
            images: message.images,
        };
        let receipt = match self.command(id, event).await? {
            Reply::Accepted(receipt) => receipt,
            Reply::Done | Reply::Branch(_) | Reply::Message(_) => {
                return Err(RuntimeError::Rejected(WireError::new(ErrorCode::Internal, "the message was not accepted")))
            }
        };
        if receipt.queued {
            return Ok(receipt);
        }
        match pipeline_outcome(&mut events, id, receipt.message_id.0).await {
            Outcome::Added => Ok(receipt),
            Outcome::Refused(reason) => Err(RuntimeError::Rejected(WireError::new(ErrorCode::InvalidInput, reason))),
            Outcome::Stopped(reason) => Err(RuntimeError::Rejected(WireError::new(ErrorCode::Storage, reason))),
        }
    }
}

enum Outcome {
    Added,
    Refused(String),
    /// The context stopped before the message was stored (it could not
    /// write).
    Stopped(String),
}

/// Waits for the message to enter the conversation or to be refused.
async fn pipeline_outcome(events: &mut broadcast::Receiver<BraidEvent>, id: &ContextId, message: u64) -> Outcome {
    loop {
        let update = match events.recv().await {
            Ok(BraidEvent::ContextUpdate(u)) if &u.context_id == id => u,
            Ok(_) => continue,
            // Too many events to follow, or the context ended: what
            // happened is in the context's events; do not guess a refusal.
            Err(broadcast::error::RecvError::Lagged(_)) | Err(broadcast::error::RecvError::Closed) => {
                return Outcome::Added
            }
        };
        if update.message.as_ref().is_some_and(|m| m.message_id.0 == message && m.change == MessageChange::Created) {
            return Outcome::Added;
        }
        if let ContextStatus::Failed { message, .. } = update.current_state {
            return Outcome::Stopped(message);
        }
        match update.metadata.notice {
            Some(n) if n.code == NoticeCode::MessageNotAdded => return Outcome::Refused(n.message),
            Some(n) if n.code == NoticeCode::Cancelled => {
                return Outcome::Refused("the message was cancelled before it was added".to_owned())
            }
            _ => {}
        }
    }
}
