//! Rewinding a conversation's files: what a rewind to a message would
//! write (checked against the conversation: the message is on the branch
//! in use, the context at rest), what undoing a restore would write, and
//! the note a restore leaves, with its own checkpoint so it can be undone.

use super::{Context, Step};
use crate::checkpoint::{after_message, rewind, turn_changes, RewindPlan};
use crate::machine::Event;
use braid_protocol::{
    BranchId, ChangeAuthor, Checkpoint, ControlKind, ErrorCode, FileDelta, MessageId, MessageType, Timestamp, WireError,
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

    /// The files as they were at `branch`'s last message: every change
    /// recorded after it undone, whichever branch made it (the files have
    /// one history). Switching to the branch with its files writes this.
    pub fn branch_plan(&self, branch: &BranchId, checkpoints: &[Checkpoint]) -> Result<RewindPlan, WireError> {
        self.refuse_if_busy()?;
        let b = self
            .conversation
            .branch(branch)
            .ok_or_else(|| WireError::new(ErrorCode::NotFound, format!("there is no branch {branch}")))?;
        // A switch to the branch is recorded on it without changing a
        // file: the branch's files are those of its last other message.
        let tip =
            b.message_ids.iter().rev().find(|id| !self.conversation.is_switch(**id)).copied().unwrap_or(MessageId(0));
        let mut after: Vec<&Checkpoint> = checkpoints.iter().filter(|cp| cp.message_id > tip).collect();
        after.sort_by_key(|cp| cp.id);
        Ok(RewindPlan { at: Some(tip), ..rewind(after) })
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

    /// What the turn holding `at` changed, as it stands, to be undone in
    /// part or whole: its question and the files' changes.
    pub fn changes_plan(
        &self,
        at: MessageId,
        checkpoints: &[Checkpoint],
    ) -> Result<(MessageId, Vec<FileDelta>), WireError> {
        self.refuse_if_busy()?;
        turn_changes(&self.conversation, at, checkpoints).ok_or_else(|| {
            WireError::new(ErrorCode::NotFound, format!("message {at} is in no turn of the branch in use"))
        })
    }

    /// The restore done: its note, and what it changed as its checkpoint.
    /// The undo of an undo of a turn's changes is part of that turn's
    /// review too.
    pub fn files_restored(&mut self, restored: Restored, now: Timestamp) -> Step {
        let Restored { to, changes, kept, undoes, changes_of } = restored;
        let changes_of = changes_of.or_else(|| match &self.conversation.message(undoes?)?.body {
            MessageType::SystemControl { control: ControlKind::FilesRestored { changes_of, .. } } => *changes_of,
            _ => None,
        });
        self.handle(Event::FilesRestored { to, changes, kept, undoes, changes_of }, now)
    }
}

/// A restore carried out: what it was for (a rewind to `to`, the undo of
/// the restore `undoes`, or an undo of the changes of the turn asked by
/// `changes_of`), what it changed, and the files it left as they are.
#[derive(Debug, Clone)]
pub struct Restored {
    pub to: MessageId,
    pub changes: Vec<FileDelta>,
    pub kept: Vec<String>,
    pub undoes: Option<MessageId>,
    pub changes_of: Option<MessageId>,
}

impl Restored {
    /// A rewind to `to`, nothing yet known of what it changed.
    pub fn to(to: MessageId) -> Restored {
        Restored { to, changes: Vec::new(), kept: Vec::new(), undoes: None, changes_of: None }
    }
}
