//! Putting files back: each file written under a temporary name beside it
//! and renamed over it (so a file is always its old or its new content),
//! and the whole set journaled first, so a restore a crash cut short is
//! completed on the next start: every file ends new, never a mix.
//!
//! A change that must go with a record elsewhere (a merge and its card
//! in the database) is journaled in two steps: prepared before the
//! record is stored, finished after. After a crash it is completed only
//! if the record was stored ([`Commit`]), and dropped otherwise: all or
//! nothing.

use crate::objects::{hash_of, temporary, Objects};
use crate::scan::read;
use crate::CheckpointError;
use braid_protocol::{ContentHash as Hash, FileKind as Kind, FileVersion, RestoreTarget as Target};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file whose content is not the one expected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conflict {
    pub path: String,
    pub expected: Option<Hash>,
    pub found: Option<Hash>,
}

/// The content name of the file at `path` now (`None`: there is none).
pub fn current(path: &Path) -> Result<Option<Hash>, CheckpointError> {
    Ok(version(path)?.map(|(v, _)| v.hash))
}

/// The file at `path` now, as a version and its content (`None`: there
/// is none).
pub fn version(path: &Path) -> Result<Option<(FileVersion, Vec<u8>)>, CheckpointError> {
    use std::os::unix::fs::PermissionsExt;
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CheckpointError::io(path.display(), e)),
    };
    if meta.is_dir() {
        return Err(CheckpointError::Invalid(format!("{} is a folder now", path.display())));
    }
    let kind = match meta.file_type() {
        t if t.is_symlink() => Kind::Symlink,
        _ if meta.permissions().mode() & 0o111 != 0 => Kind::Executable,
        _ => Kind::File,
    };
    let bytes = read(path, kind).map_err(|e| CheckpointError::io(path.display(), e))?;
    Ok(Some((FileVersion { hash: hash_of(&bytes), kind, size: bytes.len() as u64 }, bytes)))
}

/// The targets whose file on disk is not what they expect.
pub fn conflicts(root: &Path, targets: &[Target]) -> Result<Vec<Conflict>, CheckpointError> {
    let mut out = Vec::new();
    for t in targets {
        let found = current(&root.join(&t.path))?;
        if found != t.expected {
            out.push(Conflict { path: t.path.clone(), expected: t.expected.clone(), found });
        }
    }
    Ok(out)
}

#[derive(Debug, Serialize, Deserialize)]
struct Pending {
    root: PathBuf,
    targets: Vec<Target>,
    #[serde(default)]
    commit: Option<Commit>,
}

/// Where the record of a prepared change is looked for after a crash:
/// the conversation, and the newest of its checkpoints before the change
/// (the record is a later checkpoint holding the journal's targets).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commit {
    pub context: String,
    pub after: u64,
}

/// A restore cut short: where, how many files, and whether it was
/// completed (or dropped, its record never stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovered {
    pub root: PathBuf,
    pub files: usize,
    pub completed: bool,
}

/// The journal of one restore at a time, at a path of the caller's.
#[derive(Debug, Clone)]
pub struct Journal {
    path: PathBuf,
}

impl Journal {
    pub fn new(path: impl Into<PathBuf>) -> Journal {
        Journal { path: path.into() }
    }

    /// Writes every target under `root` (their contents must be in
    /// `objects`, checked before anything is written). Returns how many
    /// files changed on disk.
    pub fn restore(&self, root: &Path, objects: &Objects, targets: &[Target]) -> Result<usize, CheckpointError> {
        self.journal(root, objects, targets, None)?;
        self.finish(root, objects, targets)
    }

    /// Journals the targets of a change whose record is stored next;
    /// nothing is written yet ([`Journal::finish`] writes, or
    /// [`Journal::abandon`] drops it when the record was not stored).
    pub fn prepare(
        &self,
        root: &Path,
        objects: &Objects,
        targets: &[Target],
        commit: Commit,
    ) -> Result<(), CheckpointError> {
        self.journal(root, objects, targets, Some(commit))
    }

    /// Writes the journaled targets, then clears the journal.
    pub fn finish(&self, root: &Path, objects: &Objects, targets: &[Target]) -> Result<usize, CheckpointError> {
        let changed = apply(root, objects, targets)?;
        self.clear()?;
        Ok(changed)
    }

    /// Drops a prepared change whose record was not stored.
    pub fn abandon(&self) -> Result<(), CheckpointError> {
        self.clear()
    }

    fn journal(
        &self,
        root: &Path,
        objects: &Objects,
        targets: &[Target],
        commit: Option<Commit>,
    ) -> Result<(), CheckpointError> {
        if let Some(missing) = targets.iter().filter_map(|t| t.to.as_ref()).find(|e| !objects.has(&e.hash)) {
            return Err(CheckpointError::Missing(missing.hash.clone()));
        }
        for t in targets {
            crate_path(root, &t.path)?;
        }
        self.write(&Pending { root: root.to_owned(), targets: targets.to_vec(), commit })
    }

    /// Completes the restore a crash left journaled, if any; a prepared
    /// change only when `committed` finds its record.
    pub fn recover(
        &self,
        objects: &Objects,
        committed: &dyn Fn(&Commit, &[Target]) -> bool,
    ) -> Result<Option<Recovered>, CheckpointError> {
        let text = match std::fs::read(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(CheckpointError::io(self.path.display(), e)),
        };
        let pending: Pending = serde_json::from_slice(&text)
            .map_err(|e| CheckpointError::Invalid(format!("{}: {e}", self.path.display())))?;
        for t in &pending.targets {
            remove_temporaries(&crate_path(&pending.root, &t.path)?);
        }
        let completed = pending.commit.as_ref().is_none_or(|c| committed(c, &pending.targets));
        if completed {
            apply(&pending.root, objects, &pending.targets)?;
        }
        self.clear()?;
        Ok(Some(Recovered { root: pending.root, files: pending.targets.len(), completed }))
    }

    fn write(&self, pending: &Pending) -> Result<(), CheckpointError> {
        let io = |e| CheckpointError::io(self.path.display(), e);
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let tmp = temporary(&self.path);
        let text = serde_json::to_vec(pending).map_err(|e| CheckpointError::Invalid(e.to_string()))?;
        let mut file = std::fs::File::create(&tmp).map_err(io)?;
        file.write_all(&text).and_then(|()| file.sync_all()).map_err(io)?;
        std::fs::rename(&tmp, &self.path).map_err(io)
    }

    fn clear(&self) -> Result<(), CheckpointError> {
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CheckpointError::io(self.path.display(), e)),
            _ => Ok(()),
        }
    }
}

/// A relative path with no way out of the workspace.
fn crate_path(root: &Path, rel: &str) -> Result<PathBuf, CheckpointError> {
    let escapes = rel.is_empty() || rel.starts_with('/') || rel.split('/').any(|p| p == ".." || p.is_empty());
    if escapes {
        return Err(CheckpointError::Invalid(format!("{rel}: not a path inside the workspace")));
    }
    Ok(root.join(rel))
}

/// Each target in turn; one already as it should be is left alone, so
/// applying twice is applying once.
fn apply(root: &Path, objects: &Objects, targets: &[Target]) -> Result<usize, CheckpointError> {
    let mut changed = 0;
    for t in targets {
        let path = crate_path(root, &t.path)?;
        let now = current(&path)?;
        if now.as_ref() == t.to.as_ref().map(|e| &e.hash) {
            continue;
        }
        changed += 1;
        match &t.to {
            None => remove(root, &path)?,
            Some(entry) => put(&path, entry, &objects.get(&entry.hash)?)?,
        }
    }
    Ok(changed)
}

fn put(path: &Path, entry: &FileVersion, bytes: &[u8]) -> Result<(), CheckpointError> {
    use std::os::unix::fs::PermissionsExt;
    let io = |e| CheckpointError::io(path.display(), e);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let tmp = temporary(path);
    let written = match entry.kind {
        Kind::Symlink => {
            let target = std::ffi::OsStr::from_bytes_lossy(bytes);
            std::os::unix::fs::symlink(target, &tmp)
        }
        Kind::File | Kind::Executable => std::fs::write(&tmp, bytes).and_then(|()| {
            let mode = if entry.kind == Kind::Executable { 0o755 } else { 0o644 };
            std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(mode))
        }),
    };
    written.and_then(|()| std::fs::rename(&tmp, path)).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}

/// What a write cut short left beside `path` (see [`temporary`]).
fn remove_temporaries(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return };
    let prefix = format!(".{}.braid-", name.to_string_lossy());
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Removes the file, then the folders it leaves empty (up to the root).
fn remove(root: &Path, path: &Path) -> Result<(), CheckpointError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(CheckpointError::io(path.display(), e)),
        _ => {}
    }
    let mut dir = path.parent();
    while let Some(d) = dir.filter(|d| *d != root && d.starts_with(root)) {
        if std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
    Ok(())
}

trait FromBytes {
    fn from_bytes_lossy(bytes: &[u8]) -> &std::ffi::OsStr;
}

impl FromBytes for std::ffi::OsStr {
    fn from_bytes_lossy(bytes: &[u8]) -> &std::ffi::OsStr {
        use std::os::unix::ffi::OsStrExt;
        std::ffi::OsStr::from_bytes(bytes)
    }
}
