//! Rewinding files, decided: given the checkpoints recorded after the
//! point to go back to, which file gets which version, what it must hold
//! now to be written without asking, and which files the user changed
//! outside Braid in between (never overwritten without their say).

use crate::conversation::Conversation;
use braid_protocol::{ChangeAuthor, Checkpoint, MessageId, RestoreTarget};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RewindPlan {
    /// By path: each file any of the checkpoints touched, back to its
    /// version before the first of them, expected to hold its version
    /// after the last.
    pub targets: Vec<RestoreTarget>,
    /// Paths among the targets that a `User` checkpoint touched.
    pub changed_by_user: Vec<String>,
    /// How many checkpoints it undoes.
    pub undoes: u32,
}

/// The plan that undoes `after` (oldest first). Undoing a restore is the
/// same plan over the restore's own checkpoint.
pub fn rewind<'a>(after: impl IntoIterator<Item = &'a Checkpoint>) -> RewindPlan {
    let mut targets: BTreeMap<&str, RestoreTarget> = BTreeMap::new();
    let mut by_user = Vec::new();
    let mut undoes = 0;
    for cp in after {
        undoes += 1;
        for delta in &cp.changes {
            let target = targets.entry(&delta.path).or_insert_with(|| RestoreTarget {
                path: delta.path.clone(),
                to: delta.before.clone(),
                expected: None,
            });
            target.expected = delta.after.as_ref().map(|v| v.hash.clone());
            if cp.author == ChangeAuthor::User && !by_user.contains(&delta.path) {
                by_user.push(delta.path.clone());
            }
        }
    }
    // A file back where it was already is not written.
    let targets: Vec<RestoreTarget> =
        targets.into_values().filter(|t| t.to.as_ref().map(|v| &v.hash) != t.expected.as_ref()).collect();
    by_user.retain(|p| targets.iter().any(|t| &t.path == p));
    by_user.sort();
    RewindPlan { targets, changed_by_user: by_user, undoes }
}

/// The checkpoints recorded after `at` on the active branch, oldest
/// first: what rewinding the files to the moment `at` was sent undoes.
/// (The user's changes attached to `at` itself came before it was sent,
/// and stay.) `None` when `at` is not on the active branch.
pub fn after_message<'a>(
    conversation: &Conversation,
    at: MessageId,
    checkpoints: &'a [Checkpoint],
) -> Option<Vec<&'a Checkpoint>> {
    let order: Vec<MessageId> = conversation.active_messages().map(|m| m.id).collect();
    let from = order.iter().position(|id| *id == at)?;
    let later: std::collections::HashMap<MessageId, usize> =
        order[from + 1..].iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let mut found: Vec<(usize, &Checkpoint)> =
        checkpoints.iter().filter_map(|cp| later.get(&cp.message_id).map(|i| (*i, cp))).collect();
    found.sort_by_key(|(i, cp)| (*i, cp.id));
    Some(found.into_iter().map(|(_, cp)| cp).collect())
}
