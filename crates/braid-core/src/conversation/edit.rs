//! Editing and deleting branches: what a deletion takes (the messages no
//! other branch holds) and carrying out the machine's edits.

use super::{Branch, Conversation, ConversationError};
use braid_protocol::{BranchId, ControlKind, MessageId, MessageType};
use serde::{Deserialize, Serialize};

/// A branch to delete, as the conversation has it: the machine decides
/// whether it may go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchDeletion {
    pub id: BranchId,
    pub name: String,
    pub parent: Option<BranchId>,
    /// Messages no other branch holds: they go with it.
    pub orphans: Vec<MessageId>,
    /// Branches forked from it: re-attached to its parent.
    pub children: Vec<BranchId>,
    /// It is the active branch.
    pub active: bool,
}

impl Conversation {
    /// What a fork needs first: its trimmed name (empty: unnamed, as the
    /// versions an edit or an answer again make are until the user names
    /// one), the source branch, and where `at` stands on it.
    pub(crate) fn fork_point<'a, 'n>(
        &'a self,
        source: &BranchId,
        at: MessageId,
        name: &'n str,
    ) -> Result<(&'n str, &'a Branch, usize), ConversationError> {
        let name = name.trim();
        let parent = self.branches.get(source).ok_or_else(|| ConversationError::NoSuchBranch(source.clone()))?;
        let pos = parent
            .message_ids
            .iter()
            .position(|id| *id == at)
            .ok_or_else(|| ConversationError::NotOnBranch { message: at, branch: source.clone() })?;
        Ok((name, parent, pos))
    }

    /// The branch that holds everything of `source` before `at`: where an
    /// edited question is sent again, or an answer answered again. A tool
    /// round goes whole: before a result is before its call.
    pub fn fork_before(
        &self,
        source: &BranchId,
        at: MessageId,
        name: &str,
        now: braid_protocol::Timestamp,
    ) -> Result<Branch, ConversationError> {
        let (name, parent, mut pos) = self.fork_point(source, at, name)?;
        let result = |i: usize| parent.message_ids.get(i).and_then(|id| self.pool.get(id)).map(|m| &m.body);
        while pos > 0 && matches!(result(pos), Some(braid_protocol::MessageType::ToolResult { .. })) {
            pos -= 1;
        }
        let kept = parent.message_ids[..pos].to_vec();
        Ok(Branch {
            id: BranchId(String::new()),
            name: name.to_owned(),
            parent: Some(source.clone()),
            fork_point: kept.last().copied(),
            message_ids: kept,
            system_prompt: None,
            pipeline: parent.pipeline.clone(),
            model: parent.model.clone(),
            folder: None,
            created_at: now,
        })
    }

    pub(super) fn edit_branch(
        &mut self,
        id: &BranchId,
        change: impl FnOnce(&mut Branch),
    ) -> Result<(), ConversationError> {
        let b = self.branches.get_mut(id).ok_or_else(|| ConversationError::NoSuchBranch(id.clone()))?;
        change(b);
        Ok(())
    }

    /// What deleting `id` takes with it: the messages no other branch
    /// holds, nor could get back by undoing a merge it holds; its child
    /// branches are re-attached to its parent.
    pub fn deletion(&self, id: &BranchId) -> Result<BranchDeletion, ConversationError> {
        let b = self.branches.get(id).ok_or_else(|| ConversationError::NoSuchBranch(id.clone()))?;
        let mut others: std::collections::HashSet<MessageId> = std::collections::HashSet::new();
        for o in self.branches.values().filter(|o| o.id != *id) {
            for m in &o.message_ids {
                others.insert(*m);
                if let Some(MessageType::SystemControl { control: ControlKind::Merge { record } }) =
                    self.pool.get(m).map(|m| &m.body)
                {
                    others.extend(record.before.iter().flatten());
                }
            }
        }
        Ok(BranchDeletion {
            id: id.clone(),
            name: b.label(),
            parent: b.parent.clone(),
            orphans: b.message_ids.iter().copied().filter(|m| !others.contains(m)).collect(),
            children: self.branches.values().filter(|o| o.parent.as_ref() == Some(id)).map(|o| o.id.clone()).collect(),
            active: self.active == *id,
        })
    }

    /// A merge (or its undo) sets the branch's list whole; every id must
    /// be in the pool, once.
    pub(super) fn set_branch_messages(&mut self, id: &BranchId, ids: &[MessageId]) -> Result<(), ConversationError> {
        if let Some(missing) = ids.iter().find(|m| !self.pool.contains_key(m)) {
            return Err(ConversationError::NoSuchMessage(*missing));
        }
        let mut seen = std::collections::HashSet::with_capacity(ids.len());
        if let Some(twice) = ids.iter().find(|m| !seen.insert(**m)) {
            return Err(ConversationError::DuplicateMessage(*twice));
        }
        self.edit_branch(id, |b| b.message_ids = ids.to_vec())
    }

    pub(super) fn delete_branch(&mut self, d: &BranchDeletion) -> Result<(), ConversationError> {
        self.branches.remove(&d.id).ok_or_else(|| ConversationError::NoSuchBranch(d.id.clone()))?;
        for m in &d.orphans {
            self.pool.remove(m);
        }
        for c in &d.children {
            if let Some(child) = self.branches.get_mut(c) {
                child.parent.clone_from(&d.parent);
            }
        }
        Ok(())
    }
}
