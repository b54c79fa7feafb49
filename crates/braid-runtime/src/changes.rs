//! Reviewing a turn's changes: each file it changed with its hunks as
//! they stand, and undoing hunks, files or all of it. The core says which
//! changes are the turn's; the hunks are cut and taken back here, an undo
//! merged three-way with what the file holds now, and written as a
//! restore (journaled, with its note and checkpoint, so it can be undone).

use crate::checkpoints::Checkpoints;
use crate::mailbox::{Input, RewindAnswer, RewindOp};
use crate::rewind::failed;
use crate::{Runtime, RuntimeError};
use braid_checkpoint::hunks;
use braid_core::checkpoint::RewindPlan;
use braid_core::context::Restored;
use braid_protocol::{
    ChangeHunk, ChangedFile, ContentHash, ContextId, ErrorCode, FileChange, FileDelta, FileVersion, MessageId,
    RestoreTarget, RewindOutcome, TurnChangeCount, TurnChanges, UndoSelection, WireError,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn invalid(text: String) -> RuntimeError {
    RuntimeError::Rejected(WireError::new(ErrorCode::InvalidInput, text))
}

/// A file's three states: before the turn, as the turn left it (after any
/// undo of its hunks), and on disk now.
struct Sides {
    before: Option<Vec<u8>>,
    after: Option<Vec<u8>>,
    now: Option<Vec<u8>>,
    now_hash: Option<ContentHash>,
}

impl Sides {
    fn read(checkpoints: &Checkpoints, root: &Path, delta: &FileDelta) -> Result<Sides, String> {
        let kept = |v: &Option<FileVersion>| v.as_ref().map(|v| checkpoints.content(&v.hash)).transpose();
        let now = match std::fs::read(root.join(&delta.path)) {
            Ok(b) => Some(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("{}: {e}", delta.path)),
        };
        let now_hash = now.as_deref().map(braid_checkpoint::hash_of);
        Ok(Sides { before: kept(&delta.before)?, after: kept(&delta.after)?, now, now_hash })
    }

    /// Both sides as text, when they are (an absent file is empty text).
    fn texts(&self) -> Option<(&str, &str)> {
        Some((text_of(&self.before)?, text_of(&self.after)?))
    }

    fn changed_since(&self, delta: &FileDelta) -> bool {
        self.now_hash.as_ref() != delta.after.as_ref().map(|v| &v.hash)
    }
}

/// A side as text (an absent file is empty text), when it is text.
fn text_of(bytes: &Option<Vec<u8>>) -> Option<&str> {
    bytes.as_deref().map_or(Some(""), hunks::text)
}

fn changed_file(delta: &FileDelta, sides: &Sides) -> ChangedFile {
    let change = match (&delta.before, &delta.after) {
        (None, _) => FileChange::Created,
        (_, None) => FileChange::Deleted,
        _ => FileChange::Modified,
    };
    let cut = sides.texts().map(|(b, a)| hunks::hunks(b, a));
    let hunks: Vec<ChangeHunk> = cut
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, h)| ChangeHunk { index: i as u32, diff: h.diff.clone(), added: h.added, removed: h.removed })
        .collect();
    ChangedFile {
        path: delta.path.clone(),
        change,
        binary: cut.is_none(),
        added: hunks.iter().map(|h| h.added).sum(),
        removed: hunks.iter().map(|h| h.removed).sum(),
        hunks,
        changed_since: sides.changed_since(delta),
    }
}

/// What the file is to hold once `undo` is taken back (`None`: removed).
fn undone(delta: &FileDelta, sides: &Sides, undo: &Option<Vec<u32>>) -> Result<Option<Vec<u8>>, String> {
    let path = &delta.path;
    let Some((before, after)) = sides.texts() else {
        // Not text: only as a whole, and only while it holds what the turn left.
        if undo.is_some() {
            return Err(format!("{path} is not text: it is undone as a whole"));
        }
        if sides.changed_since(delta) {
            return Err(format!("{path} changed since this turn; rewind to undo it, or edit it by hand"));
        }
        return Ok(sides.before.clone());
    };
    let count = hunks::hunks(before, after).len() as u32;
    let chosen: Vec<u32> = match undo {
        None => (0..count).collect(),
        Some(h) => h.clone(),
    };
    if let Some(bad) = chosen.iter().find(|h| **h >= count) {
        return Err(format!("{path} has no hunk {bad} (it has {count})"));
    }
    let whole = chosen.len() as u32 == count;
    let reverted = hunks::revert(before, after, &chosen);
    if !sides.changed_since(delta) {
        return Ok(if whole && sides.before.is_none() { None } else { Some(reverted.into_bytes()) });
    }
    let now = text_of(&sides.now).ok_or_else(|| format!("{path} is no longer text"))?;
    match hunks::merge(after, now, &reverted) {
        Some(merged) => Ok(Some(merged.into_bytes())),
        None => Err(format!(
            "{path} changed since this turn in the same lines; undo it by hand, or rewind to before the turn"
        )),
    }
}

impl Runtime {
    /// The turn's net changes, after the folder is looked at.
    async fn turn_deltas(
        &self,
        id: &ContextId,
        at: MessageId,
    ) -> Result<(PathBuf, MessageId, Vec<FileDelta>), RuntimeError> {
        let (root, user) = self.settled_folder(id).await?;
        let checkpoints = self.recorded(id)?;
        match self.ask(id, |answer| Input::Rewind { op: RewindOp::Changes { at, user, checkpoints }, answer }).await? {
            RewindAnswer::Changes(question, deltas) => Ok((root, question, deltas)),
            _ => Err(failed("the context answered something else")),
        }
    }

    /// What the turn holding `at` changed, file by file with its hunks.
    pub async fn turn_changes(&self, id: &ContextId, at: MessageId) -> Result<TurnChanges, RuntimeError> {
        let (root, question, deltas) = self.turn_deltas(id, at).await?;
        let checkpoints = Arc::clone(&self.shared.checkpoints);
        let files = tokio::task::spawn_blocking(move || {
            deltas
                .iter()
                .map(|d| Sides::read(&checkpoints, &root, d).map(|s| changed_file(d, &s)))
                .collect::<Result<Vec<_>, String>>()
        })
        .await
        .map_err(failed)?
        .map_err(failed)?;
        Ok(TurnChanges { question, files })
    }

    /// Takes back the chosen hunks (or whole files) of the turn holding
    /// `at`: each file merged with what it holds now, all written as one
    /// restore that can itself be undone. A file that cannot be undone
    /// cleanly refuses the whole undo, with why; nothing is written then.
    pub async fn undo_changes(
        &self,
        id: &ContextId,
        at: MessageId,
        files: Vec<UndoSelection>,
    ) -> Result<RewindOutcome, RuntimeError> {
        if files.is_empty() {
            return Err(invalid("choose at least one file or hunk to undo".into()));
        }
        let (root, question, deltas) = self.turn_deltas(id, at).await?;
        let checkpoints = Arc::clone(&self.shared.checkpoints);
        let at_root = root.clone();
        let targets = tokio::task::spawn_blocking(move || {
            files
                .iter()
                .map(|sel| {
                    let delta = deltas
                        .iter()
                        .find(|d| d.path == sel.path)
                        .ok_or_else(|| format!("{} has no changes of this turn left to undo", sel.path))?;
                    let sides = Sides::read(&checkpoints, &at_root, delta)?;
                    let to = undone(delta, &sides, &sel.hunks)?;
                    let kind = delta.after.as_ref().or(delta.before.as_ref()).map(|v| v.kind);
                    let to = match (to, kind) {
                        (Some(bytes), Some(kind)) => {
                            let hash = checkpoints.put(&bytes)?;
                            Some(FileVersion { hash, kind, size: bytes.len() as u64 })
                        }
                        _ => None,
                    };
                    Ok(RestoreTarget { path: sel.path.clone(), to, expected: sides.now_hash })
                })
                .collect::<Result<Vec<_>, String>>()
        })
        .await
        .map_err(failed)?
        .map_err(invalid)?;
        // Each target was merged with what the file held just now; one that
        // changed again since is left as it is (and said, in `kept`).
        let overwrite = Vec::new();
        let plan = RewindPlan { targets, changed_by_user: Vec::new(), undoes: 1, at: None };
        let restored = Restored { changes_of: Some(question), ..Restored::to(question) };
        self.restore(id, &root, plan, overwrite, restored).await
    }

    /// Every turn of the branch in use that changed files, with how much.
    pub async fn changed_turns(&self, id: &ContextId) -> Result<Vec<TurnChangeCount>, RuntimeError> {
        let checkpoints = self.recorded(id)?;
        match self.ask(id, |answer| Input::Rewind { op: RewindOp::Turns(checkpoints), answer }).await? {
            RewindAnswer::Turns(turns) => Ok(turns),
            _ => Err(failed("the context answered something else")),
        }
    }
}
