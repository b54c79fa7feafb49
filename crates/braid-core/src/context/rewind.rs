//! Rewinding a conversation's files: what a rewind to a message would
//! write (checked against the conversation: the message is on the branch
//! in use, the context at rest), what undoing a restore would write, and
//! the note a restore leaves, with its own checkpoint so it can be undone.

use super::{Context, Step};
use crate::checkpoint::{after_message, rewind, RewindPlan};
use crate::machine::Event;
use braid_protocol::{
    ChangeAuthor, Checkpoint, ControlKind, ErrorCode, FileDelta, MessageId, MessageType, Timestamp, WireError,
};

impl Context {
    fn refuse_if_busy(&self) -> Result<(), WireError> {
        if self.state.status.is_busy() {
            let text = "Braid is busy with this conversation; cancel or wait before restoring files.";
            return Err(WireError::new(ErrorCode::AgentBusy, text));
        }
        Ok(())
    }

    /// The files back as they were when `at` was sent.
    pub fn rewind_plan(&self, at: MessageId, checkpoints: &[Checkpoint]) -> Result<RewindPlan, WireError> {
        self.refuse_if_busy()?;
        let after = after_message(&self.conversation, at, checkpoints)
            .ok_or_else(|| WireError::new(ErrorCode::NotFound, format!("message {at} is not on the branch in use")))?;
        Ok(rewind(after))
    }

    /// The files a restore wrote back as they were before it.
    pub fn undo_plan(&self, note: MessageId, checkpoints: &[Checkpoint]) -> Result<RewindPlan, WireError> {
        self.refuse_if_busy()?;
        let on_branch = self.conversation.active_messages().any(|m| {
            m.id == note && matches!(&m.body, MessageType::SystemControl { control: ControlKind::FilesRestored { .. } })
        });
        if !on_branch {
            return Err(WireError::new(
                ErrorCode::NotFound,
                format!("message {note} is not a file restore on the branch in use"),
            ));
        }
        let undone = self.conversation.active_messages().any(|m| {
            matches!(&m.body, MessageType::SystemControl { control: ControlKind::FilesRestored { undoes: Some(n), .. } } if *n == note)
        });
        if undone {
            return Err(WireError::new(ErrorCode::InvalidInput, "this restore was already undone"));
        }
        let own = checkpoints.iter().filter(|c| c.message_id == note && c.author == ChangeAuthor::Restore);
        Ok(rewind(own))
    }

    /// The restore done: its note, and what it changed as its checkpoint.
    pub fn files_restored(
        &mut self,
        to: MessageId,
        changes: Vec<FileDelta>,
        kept: Vec<String>,
        undoes: Option<MessageId>,
        now: Timestamp,
    ) -> Step {
        self.handle(Event::FilesRestored { to, changes, kept, undoes }, now)
    }
}
