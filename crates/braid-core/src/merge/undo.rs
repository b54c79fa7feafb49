//! Taking a merge back: the target loses what the merge brought (and
//! gets back what its resolutions took off, and its prompt); the card
//! stays, and the machine records the undo after it, so the merge stays
//! in the history as undone.

use super::MergeError;
use crate::conversation::Conversation;
use braid_protocol::{BranchId, ControlKind, MessageId, MessageType};
use std::collections::HashSet;

/// Undoing a merge: the target's messages afterwards and its prompt back.
#[derive(Debug, Clone, PartialEq)]
pub struct MergeUndo {
    pub merge: MessageId,
    pub target: BranchId,
    pub ids: Vec<MessageId>,
    pub prompt: Option<Option<String>>,
    pub model: Option<Option<braid_protocol::ModelChoice>>,
    /// Replayed turns still queued: they are not sent.
    pub unqueue: Vec<MessageId>,
    /// What the undo writes back in the workspace (the runtime wrote it):
    /// recorded as the undo's checkpoint.
    pub files: Vec<braid_protocol::FileDelta>,
}

/// Undoing the merge whose card is `merge`: the target loses what the
/// merge brought (and gets back what it took off); the card stays, and the
/// machine records the undo after it.
pub fn undo_plan(c: &Conversation, merge: MessageId) -> Result<MergeUndo, MergeError> {
    let target_id = c.active_branch();
    let target = c.branch(target_id).ok_or_else(|| MergeError::NoSuchBranch(target_id.clone()))?;
    let record = match c.message(merge).map(|m| &m.body) {
        Some(MessageType::SystemControl { control: ControlKind::Merge { record } })
            if target.message_ids.contains(&merge) =>
        {
            record
        }
        _ => return Err(MergeError::NotAMerge(merge)),
    };
    let undone = c.messages(target_id).any(|m| {
        matches!(&m.body, MessageType::SystemControl { control: ControlKind::MergeUndone { merge: u } } if *u == merge)
    });
    if undone {
        return Err(MergeError::AlreadyUndone);
    }
    let card_at = target.message_ids.iter().position(|id| *id == merge).unwrap_or(0);
    let mut brought: HashSet<MessageId> = record.brought.iter().copied().collect();
    brought.extend(replayed_turns(c, &target.message_ids[card_at + 1..], &record.replay_ids));
    let ids = match &record.before {
        Some(before) => {
            let mut ids = before.clone();
            ids.push(merge);
            ids.extend(target.message_ids[card_at + 1..].iter().filter(|id| !brought.contains(id)));
            ids
        }
        None => target.message_ids.iter().copied().filter(|id| !brought.contains(id)).collect(),
    };
    // Undoing a merge that later ones built on could bring back what
    // they copied: refused, nothing changed.
    super::sequence::check(ids.iter().filter_map(|id| c.message(*id)).map(|m| &m.body))
        .map_err(MergeError::UndoBreaks)?;
    Ok(MergeUndo {
        merge,
        target: target_id.clone(),
        ids,
        prompt: record.prompt_before.as_ref().map(|p| p.system_prompt.clone()),
        model: record.model_before.as_ref().map(|m| m.model.clone()),
        unqueue: record.replay_ids.clone(),
        files: Vec::new(),
    })
}

/// A rebase's replayed turns among `after` (the messages after its
/// card): each replayed question with everything up to the next
/// question that is not one of them.
fn replayed_turns(c: &Conversation, after: &[MessageId], replayed: &[MessageId]) -> Vec<MessageId> {
    let mut out = Vec::new();
    let mut inside = false;
    for id in after {
        let question = c
            .message(*id)
            .is_some_and(|m| matches!(m.body, MessageType::Text { role: braid_protocol::Role::User, .. }));
        if replayed.contains(id) {
            inside = true;
        } else if question {
            inside = false;
        }
        if inside {
            out.push(*id);
        }
    }
    out
}

/// The merge cards on the active branch that were undone.
pub fn undone(c: &Conversation) -> HashSet<MessageId> {
    c.active_messages()
        .filter_map(|m| match &m.body {
            MessageType::SystemControl { control: ControlKind::MergeUndone { merge } } => Some(*merge),
            _ => None,
        })
        .collect()
}

/// The machine's event to undo the merge whose card is `merge`.
pub fn undo_event(
    c: &Conversation,
    merge: MessageId,
    files: Vec<braid_protocol::FileDelta>,
) -> Result<crate::machine::Event, braid_protocol::WireError> {
    Ok(crate::machine::Event::UndoMerge { undo: Box::new(MergeUndo { files, ..undo_plan(c, merge)? }) })
}
