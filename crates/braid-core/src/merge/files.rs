//! A merge's files, decided: which of the source's checkpoints it brings
//! — every one since the fork; a cherry-pick's, those of the messages it
//! copies; none for a rebase answered again, whose replayed turns change
//! the files anew — and, for each file they changed, the version it had
//! before the first and after the last. The contents are merged by the
//! runtime, three-way, against the files on disk (the target's side).
//! Undoing a merge takes back the files it wrote and those its replayed
//! turns changed.

use super::{undo_plan, MergeError, MergePlan};
use crate::checkpoint::{rewind, RewindPlan};
use crate::conversation::Conversation;
use braid_protocol::{
    ChangeAuthor, Checkpoint, ControlKind, FileVersion, MergeItemFate, MergeOptions, MergeStrategy, MessageId,
    MessageType,
};
use std::collections::{BTreeMap, HashSet};

/// One file the source changed: where it started (the merge's base) and
/// where the source left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSide {
    pub path: String,
    pub base: Option<FileVersion>,
    pub theirs: Option<FileVersion>,
}

/// The files the source changed that the merge brings, by path.
pub fn sides(
    c: &Conversation,
    options: &MergeOptions,
    plan: &MergePlan,
    checkpoints: &[Checkpoint],
) -> Result<Vec<FileSide>, MergeError> {
    let source = c.branch(&options.source).ok_or_else(|| MergeError::NoSuchBranch(options.source.clone()))?;
    let target = c.active_branch();
    let target = c.branch(target).ok_or_else(|| MergeError::NoSuchBranch(target.clone()))?;
    let brought: HashSet<MessageId> = match options.strategy {
        MergeStrategy::Rebase if options.answer_again => HashSet::new(),
        MergeStrategy::CherryPick => plan
            .preview
            .items
            .iter()
            .filter(|i| matches!(i.fate, MergeItemFate::Brought | MergeItemFate::Dependency | MergeItemFate::AsText))
            .map(|i| i.id)
            .collect(),
        _ => {
            let shared = source.message_ids.iter().zip(&target.message_ids).take_while(|(a, b)| a == b).count();
            source.message_ids[shared..].iter().copied().collect()
        }
    };
    let mut chosen: Vec<&Checkpoint> = checkpoints.iter().filter(|cp| brought.contains(&cp.message_id)).collect();
    chosen.sort_by_key(|cp| cp.id);
    let mut by_path: BTreeMap<&str, FileSide> = BTreeMap::new();
    for delta in chosen.iter().flat_map(|cp| &cp.changes) {
        by_path
            .entry(&delta.path)
            .or_insert_with(|| FileSide { path: delta.path.clone(), base: delta.before.clone(), theirs: None })
            .theirs = delta.after.clone();
    }
    let same = |a: &Option<FileVersion>, b: &Option<FileVersion>| match (a, b) {
        (Some(a), Some(b)) => a.hash == b.hash && a.kind == b.kind,
        (a, b) => a.is_none() && b.is_none(),
    };
    Ok(by_path.into_values().filter(|s| !same(&s.base, &s.theirs)).collect())
}

/// What undoing the merge whose card is `card` writes back: the files
/// the merge wrote, and those its replayed turns changed, as they were.
pub fn undo_files(c: &Conversation, card: MessageId, checkpoints: &[Checkpoint]) -> Result<RewindPlan, MergeError> {
    let undo = undo_plan(c, card)?;
    let brought: HashSet<MessageId> = match c.message(card).map(|m| &m.body) {
        Some(MessageType::SystemControl { control: ControlKind::Merge { record } }) => {
            record.brought.iter().copied().collect()
        }
        _ => HashSet::new(),
    };
    let kept: HashSet<MessageId> = undo.ids.iter().copied().collect();
    let target = c.branch(c.active_branch()).ok_or_else(|| MergeError::NoSuchBranch(c.active_branch().clone()))?;
    // What the undo takes off, but not what a fast-forward took from the
    // source: the source's own turns made those changes before the merge.
    let taken_off: HashSet<MessageId> =
        target.message_ids.iter().copied().filter(|id| !kept.contains(id) && !brought.contains(id)).collect();
    let mut undone: Vec<&Checkpoint> = checkpoints
        .iter()
        .filter(|cp| (cp.message_id == card && cp.author == ChangeAuthor::Merge) || taken_off.contains(&cp.message_id))
        .collect();
    undone.sort_by_key(|cp| cp.id);
    Ok(rewind(undone))
}
