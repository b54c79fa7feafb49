//! Which messages a tool call's or an agent run's checkpoints belong to,
//! and file rewinds as the core plans and records them.

use super::ContextActor;
use crate::checkpoints::Watch;
use crate::mailbox::{Recorded, RewindAnswer, RewindOp};
use braid_core::machine::{Event, Reply};
use braid_protocol::{CallId, ChangeAuthor, Checkpoint, ErrorCode, FileDelta, MessageId, MessageType, Role, WireError};
use std::path::PathBuf;

impl ContextActor {
    /// The call's checkpoints: the user's changes before it go with the
    /// turn's question, the call's own with `turn`. None in a folder as
    /// broad as the home folder: scanning it around every call would cost
    /// more than the call.
    pub(super) fn watch(&self, turn: MessageId) -> Option<Watch> {
        let root = PathBuf::from(self.ctx.folder());
        if self.shared.config.is_broad(&root) {
            return None;
        }
        let question = self
            .ctx
            .conversation
            .active_messages()
            .filter(|m| matches!(m.body, MessageType::Text { role: Role::User, .. }))
            .last()
            .map(|m| m.id);
        Some(Watch { checkpoints: self.shared.checkpoints.clone(), root, question, turn })
    }

    /// The message that made this call.
    pub(super) fn turn_of(&self, call: &CallId) -> Option<MessageId> {
        let made = |m: &&braid_protocol::Message| match &m.body {
            MessageType::ToolRequest { calls, .. } => calls.iter().any(|c| &c.id == call),
            _ => false,
        };
        self.ctx.conversation.active_messages().filter(made).last().map(|m| m.id)
    }
}

impl ContextActor {
    /// The checkpoints with the sub-agents', as made by the messages that
    /// started them.
    pub(super) fn adopted(&self, recorded: Recorded) -> Vec<Checkpoint> {
        braid_core::checkpoint::adopt(&self.ctx.conversation, recorded.own, recorded.children)
    }

    pub(super) fn rewind_op(&mut self, op: RewindOp) -> Result<RewindAnswer, WireError> {
        let now = crate::clock::now();
        match op {
            RewindOp::Plan { to, user, checkpoints } => {
                let mut checkpoints = self.adopted(checkpoints);
                checkpoints.extend(self.user_changes(user)?);
                self.ctx.rewind_plan(to, &checkpoints).map(RewindAnswer::Plan)
            }
            RewindOp::PlanBranch { branch, user, checkpoints } => {
                let mut checkpoints = self.adopted(checkpoints);
                checkpoints.extend(self.user_changes(user)?);
                self.ctx.branch_plan(&branch, &checkpoints).map(RewindAnswer::Plan)
            }
            RewindOp::PlanUndo { note, user, checkpoints } => {
                self.user_changes(user)?;
                self.ctx.undo_plan(note, &checkpoints).map(RewindAnswer::Plan)
            }
            RewindOp::Changes { at, user, checkpoints } => {
                let mut checkpoints = self.adopted(checkpoints);
                checkpoints.extend(self.user_changes(user)?);
                let (question, changes) = self.ctx.changes_plan(at, &checkpoints)?;
                Ok(RewindAnswer::Changes(question, changes))
            }
            RewindOp::Turns(checkpoints) => {
                let checkpoints = self.adopted(checkpoints);
                Ok(RewindAnswer::Turns(braid_core::checkpoint::changed_turns(&self.ctx.conversation, &checkpoints)))
            }
            RewindOp::Done(restored) => {
                let step = self.ctx.files_restored(restored, now);
                match self.carry_out(step) {
                    Some(Ok(Reply::Message(note))) => Ok(RewindAnswer::Note(note)),
                    Some(Err(e)) => Err(e),
                    _ => Err(WireError::new(ErrorCode::Internal, "the restore was not recorded")),
                }
            }
        }
    }

    /// The user's changes found before a rewind: theirs, on the latest
    /// message of the branch in use (so a rewind to any earlier point
    /// flags them). Answered with the checkpoint as recorded.
    pub(super) fn user_changes(&mut self, changes: Vec<FileDelta>) -> Result<Option<Checkpoint>, WireError> {
        let Some(latest) = self.ctx.conversation.active_messages().last().map(|m| m.id) else { return Ok(None) };
        if changes.is_empty() {
            return Ok(None);
        }
        let checkpoint =
            Checkpoint { id: 0, message_id: latest, author: ChangeAuthor::User, changes, left_out: Vec::new() };
        let step = self.ctx.handle(Event::CheckpointTaken(Box::new(checkpoint.clone())), crate::clock::now());
        match self.carry_out(step) {
            Some(Err(e)) => Err(e),
            // Newest of all until the store numbers it.
            _ => Ok(Some(Checkpoint { id: u64::MAX, ..checkpoint })),
        }
    }
}
