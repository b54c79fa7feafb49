//! The state machine's persistence effects applied to the conversation,
//! and what undoes each (a write that failed leaves memory as stored).

use super::{Branch, Conversation, ConversationError};
use braid_protocol::{BranchId, Message, MessageId};

/// What undoes an applied persistence effect.
#[derive(Debug, Clone, PartialEq)]
pub enum Undo {
    /// Put branches (and the messages only they held) back as they were.
    RestoreBranches(Vec<Branch>, Vec<Message>),
    /// Take the message out of the pool and of the branch it was added to.
    Remove(MessageId, BranchId),
    /// Put the message back as it was.
    Restore(Box<Message>),
    /// Make this branch active again.
    Activate(BranchId),
    /// Take out a branch that was added.
    RemoveBranch(BranchId),
}

impl Conversation {
    /// Applies a persistence effect of the state machine (append, update,
    /// switch branch); other effects do not concern the conversation. The
    /// runtime, the store's recovery and the simulator all go through here.
    pub fn apply(&mut self, effect: &crate::machine::Effect) -> Result<(), ConversationError> {
        use crate::machine::Effect;
        match effect {
            Effect::AppendMessage(m) => self.append(m.clone()),
            Effect::UpdateMessage(m) => self.update(m.clone()),
            Effect::SetActiveBranch(b) => self.set_active(b),
            Effect::CreateBranch(b) => self.add_branch((**b).clone()),
            Effect::RenameBranch { branch, name } => self.edit_branch(branch, |b| b.name.clone_from(name)),
            Effect::SetBranchPrompt { branch, system_prompt } => {
                self.edit_branch(branch, |b| b.system_prompt.clone_from(system_prompt))
            }
            Effect::DeleteBranch(d) => self.delete_branch(d),
            Effect::SetBranchModel { branch, model } => self.edit_branch(branch, |b| b.model.clone_from(model)),
            Effect::SetBranchFolder { branch, folder } => self.edit_branch(branch, |b| b.folder.clone_from(folder)),
            Effect::SetBranchMessages { branch, ids } => self.set_branch_messages(branch, ids),
            _ => Ok(()),
        }
    }

    /// As [`Conversation::apply`], returning what undoes it: a write of the
    /// effect that failed must leave memory as the store has it.
    pub fn apply_undoable(&mut self, effect: &crate::machine::Effect) -> Result<Option<Undo>, ConversationError> {
        use crate::machine::Effect;
        let undo = match effect {
            Effect::AppendMessage(m) => Some(Undo::Remove(m.id, self.active.clone())),
            Effect::UpdateMessage(m) => self.pool.get(&m.id).map(|old| Undo::Restore(Box::new(old.clone()))),
            Effect::SetActiveBranch(_) => Some(Undo::Activate(self.active.clone())),
            Effect::CreateBranch(b) => Some(Undo::RemoveBranch(b.id.clone())),
            Effect::RenameBranch { branch, .. }
            | Effect::SetBranchPrompt { branch, .. }
            | Effect::SetBranchModel { branch, .. }
            | Effect::SetBranchFolder { branch, .. }
            | Effect::SetBranchMessages { branch, .. } => {
                self.branches.get(branch).map(|b| Undo::RestoreBranches(vec![b.clone()], Vec::new()))
            }
            Effect::DeleteBranch(d) => {
                let mut touched: Vec<Branch> = self.branches.get(&d.id).cloned().into_iter().collect();
                touched.extend(d.children.iter().filter_map(|c| self.branches.get(c).cloned()));
                let gone = d.orphans.iter().filter_map(|id| self.pool.get(id).cloned()).collect();
                Some(Undo::RestoreBranches(touched, gone))
            }
            _ => None,
        };
        self.apply(effect)?;
        Ok(undo)
    }

    /// Undoes one applied effect; undo several in reverse order.
    pub fn undo(&mut self, undo: Undo) {
        match undo {
            Undo::Remove(id, branch) => {
                self.pool.remove(&id);
                if let Some(b) = self.branches.get_mut(&branch) {
                    if let Some(pos) = b.message_ids.iter().rposition(|m| *m == id) {
                        b.message_ids.remove(pos);
                    }
                }
            }
            Undo::Restore(message) => {
                self.pool.insert(message.id, *message);
            }
            Undo::Activate(branch) => self.active = branch,
            Undo::RestoreBranches(branches, messages) => {
                for m in messages {
                    self.pool.insert(m.id, m);
                }
                for b in branches {
                    self.branches.insert(b.id.clone(), b);
                }
            }
            Undo::RemoveBranch(branch) => {
                self.branches.remove(&branch);
            }
        }
    }
}
