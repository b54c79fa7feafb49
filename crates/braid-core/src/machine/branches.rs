//! Editing branches: renaming, a branch's own system prompt, deleting.
//! Each is checked here and persisted before anything else sees it;
//! forking and switching are in `control.rs`.

use super::step::Step;
use super::{Effect, Reply};
use crate::conversation::BranchDeletion;
use braid_protocol::{BranchId, ErrorCode, WireError};

/// Longer names do not fit a branch's label.
pub const MAX_BRANCH_NAME: usize = 80;

impl Step<'_> {
    pub(super) fn rename_branch(&mut self, branch: BranchId, name: String) {
        let name = name.trim().to_owned();
        if name.is_empty() || name.chars().count() > MAX_BRANCH_NAME {
            let text = format!("a branch name has 1 to {MAX_BRANCH_NAME} characters");
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
            return;
        }
        self.durable.push(Effect::RenameBranch { branch, name });
        self.reply(Ok(Reply::Done));
    }

    pub(super) fn set_branch_prompt(&mut self, branch: BranchId, system_prompt: Option<String>) {
        // An empty prompt is no prompt: the conversation's applies again.
        let system_prompt = system_prompt.filter(|p| !p.trim().is_empty());
        self.durable.push(Effect::SetBranchPrompt { branch, system_prompt });
        self.reply(Ok(Reply::Done));
    }

    /// Messages another branch still holds stay; main and the branch in
    /// use cannot go.
    pub(super) fn delete_branch(&mut self, d: BranchDeletion) {
        let refusal = if d.id == BranchId::main() {
            Some("main cannot be deleted".to_owned())
        } else if d.active {
            Some(format!("{} is the branch in use: switch to another branch before deleting it", d.name))
        } else {
            None
        };
        match refusal {
            Some(text) => self.reply(Err(WireError::new(ErrorCode::InvalidInput, text))),
            None => {
                self.durable.push(Effect::DeleteBranch(Box::new(d)));
                self.reply(Ok(Reply::Done));
            }
        }
    }
}
