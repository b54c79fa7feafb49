//! A merge's files, carried out: the core says which files the source
//! changed (where each started and where the source left it); here each
//! is merged three-way with the file on disk (the target's side), settled
//! as the user chose where it could not be merged by itself, shown in the
//! preview, and written all or nothing with the merge card: journaled
//! before the card is stored, written after (see
//! `braid_checkpoint::restore`). Undoing the merge writes back what it
//! wrote, the same way.

use crate::checkpoints::Checkpoints;
use braid_checkpoint::hunks::{count, text};
use braid_checkpoint::merge::{merge_file, settle, Conflict, Merged};
use braid_checkpoint::{hash_of, version, Commit};
use braid_core::merge::files::FileSide;
use braid_protocol::{
    Checkpoint, ConflictChoice, ContextId, FileChoice, FileConflict, FileConflictKind, FileDelta, FileKind, FileTake,
    FileVersion, MergeFile, MergeOptions, Resolution, RestoreTarget,
};
use std::path::Path;

/// What a merge writes, worked out from the files as they are now.
#[derive(Default)]
pub(crate) struct FilePlan {
    pub preview: Vec<MergeFile>,
    pub targets: Vec<RestoreTarget>,
    /// The merge's checkpoint: each file from what it holds to what it gets.
    pub changes: Vec<FileDelta>,
    /// Why it cannot be written yet: files not settled, choices that do
    /// not fit.
    pub unsettled: Vec<String>,
}

/// How a file is to be merged, from the user's choices.
enum Rule {
    /// Three-way; what overlaps settled as given, if given.
    Merge(Option<FileTake>),
    /// A "both branches wrote it" conflict resolved to one side whole, or
    /// to neither (the base).
    Ours,
    Theirs,
    Base,
}

fn rule(choices: &Choices, path: &str) -> Rule {
    let explicit = choices.files.iter().find(|f| f.path == path).map(|f| f.take.clone());
    let key = format!("file:{path}");
    match choices.resolutions.iter().find(|r| r.conflict == key).map(|r| r.resolution) {
        Some(Resolution::KeepSource) => Rule::Theirs,
        Some(Resolution::KeepTarget) => Rule::Ours,
        Some(Resolution::Drop) => Rule::Base,
        // Both lines of work kept: merged, what overlaps settled apart.
        Some(Resolution::KeepBoth) | None => Rule::Merge(explicit),
    }
}

/// The user's say in how the files are merged: how each file both sides
/// changed in the same lines is settled, and "both branches wrote it"
/// history conflicts settled by side.
#[derive(Default)]
pub(crate) struct Choices<'a> {
    pub files: &'a [FileChoice],
    pub resolutions: &'a [ConflictChoice],
}

impl<'a> From<&'a MergeOptions> for Choices<'a> {
    fn from(options: &'a MergeOptions) -> Choices<'a> {
        Choices { files: &options.files, resolutions: &options.resolutions }
    }
}

/// Merges each of the source's files with the one under `root`. With
/// `keep`, the merged contents are kept in the checkpoint store (to be
/// written); a preview only names them.
pub(crate) fn plan(
    checkpoints: &Checkpoints,
    root: &Path,
    sides: &[FileSide],
    options: &Choices,
    keep: bool,
) -> Result<FilePlan, String> {
    let mut out = FilePlan::default();
    for side in sides {
        let content = |v: &Option<FileVersion>| -> Result<Option<Vec<u8>>, String> {
            v.as_ref()
                .map(|v| checkpoints.content(&v.hash))
                .transpose()
                .map_err(|e| format!("{}: the source's version is no longer kept ({e})", side.path))
        };
        let (base, theirs) = (content(&side.base)?, content(&side.theirs)?);
        let disk = version(&root.join(&side.path)).map_err(|e| e.to_string())?;
        let ours = disk.as_ref().map(|(_, b)| b.as_slice());
        let (base, theirs) = (base.as_deref(), theirs.as_deref());
        // A conflict settled stays shown as one, with its choice, so the
        // choice can be changed.
        let mut settled = None;
        let result = match rule(options, &side.path) {
            Rule::Ours => Ok(ours.map(<[u8]>::to_vec)),
            Rule::Theirs => Ok(theirs.map(<[u8]>::to_vec)),
            Rule::Base => Ok(base.map(<[u8]>::to_vec)),
            Rule::Merge(take) => match (merge_file(base, ours, theirs), take) {
                (Merged::Clean(r), _) => Ok(r),
                (Merged::Conflict(c), Some(take)) => {
                    let result = settle(base, ours, theirs, &take);
                    settled = Some(conflict_of(c.clone(), ours, theirs));
                    result.map_err(|why| (c, why))
                }
                (Merged::Conflict(c), None) => Err((c, "settle it".to_owned())),
            },
        };
        let result = match result {
            Ok(r) => r,
            Err((conflict, why)) => {
                out.unsettled.push(format!("{} ({why})", side.path));
                out.preview.push(MergeFile {
                    path: side.path.clone(),
                    action: "conflict".to_owned(),
                    diff: String::new(),
                    lines: None,
                    conflict: Some(conflict_of(conflict, ours, theirs)),
                    chosen: options.files.iter().find(|f| f.path == side.path).map(|f| f.take.clone()),
                });
                continue;
            }
        };
        if result.as_deref() == ours && settled.is_none() {
            continue;
        }
        let kind = match (&disk, &side.theirs) {
            (_, Some(t)) if result.as_deref() == theirs => t.kind,
            (Some((v, _)), _) => v.kind,
            (None, Some(t)) => t.kind,
            (None, None) => FileKind::File,
        };
        let to = match &result {
            None => None,
            Some(bytes) => {
                let hash = if keep { checkpoints.put(bytes)? } else { hash_of(bytes) };
                Some(FileVersion { hash, kind, size: bytes.len() as u64 })
            }
        };
        let before = disk.as_ref().map(|(v, _)| v.clone());
        let lines = match (text(ours.unwrap_or_default()), text(result.as_deref().unwrap_or_default())) {
            (Some(a), Some(b)) => Some(count(a, b)),
            _ => None,
        };
        out.preview.push(MergeFile {
            path: side.path.clone(),
            action: match (&before, &to) {
                _ if result.as_deref() == ours => "kept",
                (None, _) => "added",
                (_, None) => "removed",
                _ => "changed",
            }
            .to_owned(),
            diff: diff(&side.path, ours, result.as_deref()),
            lines,
            conflict: settled,
            chosen: options.files.iter().find(|f| f.path == side.path).map(|f| f.take.clone()),
        });
        if result.as_deref() != ours {
            let expected = before.as_ref().map(|v| v.hash.clone());
            out.targets.push(RestoreTarget { path: side.path.clone(), to: to.clone(), expected });
            out.changes.push(FileDelta { path: side.path.clone(), before, after: to, lines });
        }
    }
    Ok(out)
}

/// What the user is shown of a conflict: each side's text and the ways
/// to settle it.
fn conflict_of(conflict: Conflict, ours: Option<&[u8]>, theirs: Option<&[u8]>) -> FileConflict {
    let shown = |b: Option<&[u8]>| b.and_then(text).map(str::to_owned);
    let (kind, marked, ways): (_, _, &[&str]) = match conflict {
        Conflict::Lines { marked } => (FileConflictKind::Lines, Some(marked), &["ours", "theirs", "both", "edited"]),
        Conflict::DeletedAndChanged => {
            (FileConflictKind::DeletedAndChanged, None, &["ours", "theirs", "both", "edited"])
        }
        Conflict::Binary => (FileConflictKind::Binary, None, &["ours", "theirs"]),
    };
    FileConflict {
        kind,
        ours: shown(ours),
        theirs: shown(theirs),
        marked,
        options: ways.iter().map(|w| (*w).to_owned()).collect(),
    }
}

/// The unified diff from what the file holds to what it gets; empty
/// when either is not text or the diff is too long to show.
fn diff(path: &str, now: Option<&[u8]>, then: Option<&[u8]>) -> String {
    let (Some(a), Some(b)) = (text(now.unwrap_or_default()), text(then.unwrap_or_default())) else {
        return String::new();
    };
    // Too long to show: the file is still merged.
    if a.len() + b.len() > crate::rewind::DIFF_LIMIT {
        return String::new();
    }
    crate::rewind::unified(path, a, b)
}

/// What undoing a merge writes back: the targets of the core's plan, and
/// the undo's checkpoint (each file from what it holds now). Refused when
/// a file changed since the merge: that is someone's work.
pub(crate) fn undo(root: &Path, targets: &[RestoreTarget]) -> Result<Vec<FileDelta>, String> {
    let mut changes = Vec::new();
    let mut changed = Vec::new();
    for t in targets {
        let now = version(&root.join(&t.path)).map_err(|e| e.to_string())?.map(|(v, _)| v);
        if now.as_ref().map(|v| &v.hash) != t.expected.as_ref() {
            changed.push(t.path.clone());
            continue;
        }
        changes.push(FileDelta { path: t.path.clone(), before: now, after: t.to.clone(), lines: None });
    }
    if !changed.is_empty() {
        return Err(format!(
            "{} changed since the merge; undoing it would lose that work: undo those changes first, or rewind",
            changed.join(", ")
        ));
    }
    Ok(changes)
}

/// After a crash: whether the merge (or undo) journaled as `commit` was
/// recorded — a later checkpoint of its conversation holding exactly
/// the journal's targets.
pub(crate) fn recorded(store: &braid_store::Store, commit: &Commit, targets: &[RestoreTarget]) -> bool {
    let Ok(checkpoints) = store.checkpoints(&ContextId(commit.context.clone())) else { return false };
    let holds = |cp: &Checkpoint| {
        cp.changes.len() == targets.len()
            && targets.iter().all(|t| {
                cp.changes
                    .iter()
                    .any(|d| d.path == t.path && d.after.as_ref().map(|v| &v.hash) == t.to.as_ref().map(|v| &v.hash))
            })
    };
    checkpoints.iter().any(|cp| cp.id > commit.after && holds(cp))
}
