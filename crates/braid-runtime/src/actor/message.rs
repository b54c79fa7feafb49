//! What is done to one stored message: looked up here, where the
//! conversation is, checked, then fed to the machine.

use super::ContextActor;
use crate::mailbox::MessageOp;
use braid_core::machine::{Event, Reply};
use braid_protocol::{ErrorCode, MessageId, MessageType, WireError};

impl ContextActor {
    pub(super) fn message_op(&mut self, message_id: MessageId, op: MessageOp) -> Result<Reply, WireError> {
        let Some(mut message) = self.conversation.message(message_id).cloned() else {
            return Err(WireError::new(ErrorCode::NotFound, format!("there is no message {message_id}")));
        };
        let event = match op {
            MessageOp::Reread(mode) => {
                if let (MessageType::Image { mode: current, .. }, Some(m)) = (&mut message.body, mode) {
                    *current = m;
                }
                Event::RereadImage { message }
            }
            MessageOp::Keep(keep) => {
                if keep && !braid_core::fit::keepable(&message.body) {
                    let text = "only a file reference, an image or a resource can be kept in what is sent";
                    return Err(WireError::new(ErrorCode::InvalidInput, text));
                }
                Event::KeepInContext { message: message_id, keep }
            }
        };
        self.apply(event).unwrap_or(Ok(Reply::Done))
    }
}
