//! What is done to the conversation's shape: forks, switches, branch
//! edits, merges and their undo, and one stored message read again or
//! kept. Each is checked against the conversation here, drafted by the
//! core's rules, and made by the machine.

use super::{meta::check_model, Context, Step};
use crate::checkpoint::RewindPlan;
use crate::machine::Event;
use crate::merge;
use braid_protocol::{
    BranchId, Checkpoint, ErrorCode, FileDelta, ImageMode, MergeOptions, MessageId, MessageType, Timestamp, WireError,
};

/// A change to a branch, other than forking and switching.
#[derive(Debug, Clone, PartialEq)]
pub enum BranchEdit {
    Rename(String),
    /// `None`: the conversation's prompt applies again.
    Prompt(Option<String>),
    /// `None`: the conversation's model answers again. The runtime has
    /// checked that the provider exists.
    Model(Option<braid_protocol::ModelChoice>),
    /// The runtime made the branch's own copy of the workspace here, or
    /// removed it (`None`).
    Folder(Option<String>),
    Delete,
}

/// Something done to one stored message.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MessageOp {
    /// Read this Image message again, this way from now on if given.
    Reread(Option<ImageMode>),
    /// Keep this reference or image in what is sent, ahead of older
    /// messages, while it fits (or no longer).
    Keep(bool),
    /// Let the model have this tool result's withheld output.
    Release,
}

/// A tool result with its withheld output given back to the model: the
/// output is what the tool printed again, and the note says it was the
/// user's choice (the copy is dropped).
fn released(mut message: braid_protocol::Message) -> Result<Event, WireError> {
    let id = message.id;
    let held = message.meta.withheld.as_mut().filter(|w| !w.released);
    let (Some(held), MessageType::ToolResult { output, error, .. }) = (held, &mut message.body) else {
        return Err(err(ErrorCode::InvalidInput, format!("message {id} holds no withheld output")));
    };
    *output = std::mem::take(&mut held.output);
    *error = held.error.take();
    held.released = true;
    message.meta.tokens = None;
    Ok(Event::ReleaseOutput { message })
}

fn err(code: ErrorCode, text: impl Into<String>) -> WireError {
    WireError::new(code, text)
}

impl Context {
    fn no_branch(&self, branch: &BranchId) -> WireError {
        err(ErrorCode::NotFound, format!("branch {branch} does not exist in context {}", self.meta.id))
    }

    /// Forks the branch holding `from` at that message (`before`: just
    /// ahead of it, to ask it again). The reply names the new branch.
    pub fn create_branch(
        &mut self,
        from: MessageId,
        before: bool,
        name: &str,
        system_prompt: Option<String>,
        now: Timestamp,
    ) -> Step {
        let c = &self.conversation;
        let invalid = |e: crate::ConversationError| err(ErrorCode::InvalidInput, e.to_string());
        let draft = match c.branch_of(from) {
            None => Err(err(ErrorCode::NotFound, format!("message {from} is not in this conversation"))),
            Some(source) if before => c.fork_before(source, from, name, now).map_err(invalid),
            Some(source) => c.fork(source, from, name, system_prompt, now).map_err(invalid),
        };
        self.run("create_branch", draft.map(|d| Event::CreateBranch { draft: Box::new(d), switch: false }), now)
    }

    pub fn switch_branch(&mut self, to: BranchId, now: Timestamp) -> Step {
        let event = match self.conversation.branch(&to) {
            Some(_) => Ok(Event::SwitchBranch { from: self.conversation.active_branch().clone(), to }),
            // Asked for by name: a wrong one is bad input, as the API
            // has always answered.
            None => Err(err(ErrorCode::InvalidInput, self.no_branch(&to).message)),
        };
        self.run("switch_branch", event, now)
    }

    pub fn edit_branch(&mut self, branch: BranchId, edit: BranchEdit, now: Timestamp) -> Step {
        let event = if self.conversation.branch(&branch).is_none() {
            Err(self.no_branch(&branch))
        } else {
            match edit {
                BranchEdit::Rename(name) => Ok(Event::RenameBranch { branch, name }),
                BranchEdit::Prompt(system_prompt) => Ok(Event::SetBranchPrompt { branch, system_prompt }),
                BranchEdit::Model(model) => {
                    model.as_ref().map(check_model).transpose().map(|_| Event::SetBranchModel { branch, model })
                }
                BranchEdit::Folder(folder) => {
                    self.check_folder(&branch, folder.is_some()).map(|()| Event::SetBranchFolder { branch, folder })
                }
                BranchEdit::Delete => self
                    .conversation
                    .deletion(&branch)
                    .map(|d| Event::DeleteBranch { deletion: Box::new(d) })
                    .map_err(|e| err(ErrorCode::InvalidInput, e.to_string())),
            }
        };
        self.run("edit_branch", event, now)
    }

    /// Main works in the conversation's folder; the folder of the branch
    /// in use changes only at rest (never under a running tool).
    fn check_folder(&self, branch: &BranchId, given: bool) -> Result<(), WireError> {
        if given && *branch == BranchId::main() {
            return Err(err(ErrorCode::InvalidInput, "main works in the conversation's folder; give a copy to a fork"));
        }
        if branch == self.conversation.active_branch() && self.state.status.is_busy() {
            let text = "Braid is busy with this branch; cancel or wait before changing where it works.";
            return Err(err(ErrorCode::InvalidState, text));
        }
        Ok(())
    }

    /// Merges `options.source` into the active branch; the reply is the
    /// merge card's id. `files`: what the merge writes in the workspace,
    /// recorded as the card's checkpoint.
    pub fn merge(&mut self, options: &MergeOptions, files: Vec<FileDelta>, now: Timestamp) -> Step {
        let event = merge::merge_event(&self.conversation, options, self.state.book.encoding, files);
        self.run("merge", event, now)
    }

    /// Takes back the merge whose card is `card`; `files`: what the undo
    /// writes back in the workspace.
    pub fn undo_merge(&mut self, card: MessageId, files: Vec<FileDelta>, now: Timestamp) -> Step {
        let event = merge::undo_event(&self.conversation, card, files);
        self.run("undo_merge", event, now)
    }

    /// The files the source changed that merging `options` brings.
    pub fn merge_files(
        &self,
        options: &MergeOptions,
        checkpoints: &[Checkpoint],
    ) -> Result<Vec<merge::files::FileSide>, WireError> {
        let plan = merge::plan(&self.conversation, options, self.state.book.encoding)?;
        Ok(merge::files::sides(&self.conversation, options, &plan, checkpoints)?)
    }

    /// What undoing the merge whose card is `card` writes back, refused
    /// while the context is busy.
    pub fn merge_undo_files(&self, card: MessageId, checkpoints: &[Checkpoint]) -> Result<RewindPlan, WireError> {
        if self.state.status.is_busy() {
            let text = "Braid is busy with this conversation; cancel or wait before undoing a merge.";
            return Err(WireError::new(ErrorCode::AgentBusy, text));
        }
        Ok(merge::files::undo_files(&self.conversation, card, checkpoints)?)
    }

    /// What merging `options` would do, changing nothing.
    pub fn merge_preview(&self, options: &MergeOptions) -> Result<braid_protocol::MergePreview, WireError> {
        Ok(merge::plan(&self.conversation, options, self.state.book.encoding)?.preview)
    }

    pub fn message_op(&mut self, id: MessageId, op: MessageOp, now: Timestamp) -> Step {
        let event = match (self.conversation.message(id).cloned(), op) {
            (None, _) => Err(err(ErrorCode::NotFound, format!("there is no message {id}"))),
            (Some(mut message), MessageOp::Reread(mode)) => {
                if let (MessageType::Image { mode: current, .. }, Some(m)) = (&mut message.body, mode) {
                    *current = m;
                }
                Ok(Event::RereadImage { message })
            }
            (Some(message), MessageOp::Release) => released(message),
            (Some(message), MessageOp::Keep(keep)) => {
                if keep && !crate::fit::keepable(&message.body) {
                    let text = "only a file reference, an image or a resource can be kept in what is sent";
                    Err(err(ErrorCode::InvalidInput, text))
                } else {
                    Ok(Event::KeepInContext { message: id, keep })
                }
            }
        };
        self.run("message_op", event, now)
    }

    /// The checked event through the machine, or the step that refuses it.
    fn run(&mut self, name: &'static str, event: Result<Event, WireError>, now: Timestamp) -> Step {
        match event {
            Ok(event) => self.handle(event, now),
            Err(e) => Step::refused(name, self.state.status.kind(), e),
        }
    }
}
