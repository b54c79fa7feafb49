//! A snapshot of the workspace: every file's content name, size and the
//! stat facts that let the next scan skip reading it. What `.gitignore`
//! ignores, `.git` itself and files over the size limit are left out; the
//! ones over the limit are listed, so the user can be told.

use crate::objects::Objects;
use crate::CheckpointError;
use braid_protocol::{FileKind as Kind, FileVersion};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// A file as scanned: its version, and the stat facts that let the next
/// scan take it as unchanged without reading it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scanned {
    pub version: FileVersion,
    pub mtime_ns: i128,
    pub inode: u64,
    /// Changed within the clock's reach of the scan: read again next time
    /// whatever its stat says (a write in the same instant keeps the time).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub racy: bool,
}

/// A file left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub path: String,
    pub size: u64,
    pub reason: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// By path relative to the workspace, with `/` between parts.
    pub files: BTreeMap<String, Scanned>,
    pub skipped: Vec<Skipped>,
}

#[derive(Debug, Clone)]
pub struct Limits {
    /// Files larger than this are not kept (listed in `skipped`).
    pub max_file_bytes: u64,
    /// The scan stops listing after this many files (a home folder as
    /// workspace must not stall a turn); the rest are not checkpointed.
    pub max_files: usize,
    /// Paths (absolute, under the root) never looked into: Braid's own
    /// data when it lives inside the workspace.
    pub exclude: Vec<std::path::PathBuf>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_file_bytes: 10 * 1024 * 1024, max_files: 100_000, exclude: Vec::new() }
    }
}

/// A parallel walk of the workspace's files as a checkpoint sees them:
/// hidden files in, what git ignores and `.git` itself out, links not
/// followed, `exclude` (absolute paths) never entered.
pub(crate) fn walker(root: &Path, exclude: Vec<std::path::PathBuf>) -> ignore::WalkParallel {
    ignore::WalkBuilder::new(root)
        .hidden(false)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(true)
        .require_git(false)
        .parents(false)
        .follow_links(false)
        .filter_entry(move |e| e.file_name() != ".git" && !exclude.iter().any(|x| e.path() == x))
        .build_parallel()
}

/// How close to the scan a change time is taken as racy.
const RACY_NS: i128 = 2_000_000_000;

/// Scans `root`; files whose stat matches `previous` keep its content
/// name unread, the others are read and kept in `objects`.
pub fn scan(root: &Path, previous: &Manifest, objects: &Objects, limits: Limits) -> Result<Manifest, CheckpointError> {
    let started = now_ns();
    let found: Mutex<Vec<(String, std::fs::Metadata)>> = Mutex::new(Vec::new());
    let walker = walker(root, limits.exclude.clone());
    let mut builder = Collect { root, found: &found, max: limits.max_files };
    walker.visit(&mut builder);
    let found = found.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut manifest = Manifest::default();
    for (rel, meta) in found {
        let kind = if meta.file_type().is_symlink() {
            Kind::Symlink
        } else if meta.mode() & 0o111 != 0 {
            Kind::Executable
        } else {
            Kind::File
        };
        if kind != Kind::Symlink && meta.len() > limits.max_file_bytes {
            let reason = format!("larger than {} MB", limits.max_file_bytes / (1024 * 1024));
            manifest.skipped.push(Skipped { path: rel, size: meta.len(), reason });
            continue;
        }
        let mtime_ns = i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec());
        let same = previous.files.get(&rel).filter(|p| {
            let v = &p.version;
            !p.racy && v.kind == kind && v.size == meta.len() && p.mtime_ns == mtime_ns && p.inode == meta.ino()
        });
        let hash = match same {
            Some(p) => p.version.hash.clone(),
            None => match read(&root.join(&rel), kind) {
                Ok(bytes) => objects.put(&bytes)?,
                // Gone or unreadable since it was listed: not in this snapshot.
                Err(_) => continue,
            },
        };
        let racy = started - mtime_ns < RACY_NS;
        let version = FileVersion { hash, kind, size: meta.len() };
        manifest.files.insert(rel, Scanned { version, mtime_ns, inode: meta.ino(), racy });
    }
    manifest.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(manifest)
}

/// Each walking thread lists into its own vector and hands it over once,
/// when the walk ends (a lock per file cost more than the stat).
struct Collect<'a> {
    root: &'a Path,
    found: &'a Mutex<Vec<(String, std::fs::Metadata)>>,
    max: usize,
}

impl<'s, 'a: 's> ignore::ParallelVisitorBuilder<'s> for Collect<'a> {
    fn build(&mut self) -> Box<dyn ignore::ParallelVisitor + 's> {
        Box::new(Lister { root: self.root, found: self.found, max: self.max, mine: Vec::new() })
    }
}

struct Lister<'a> {
    root: &'a Path,
    found: &'a Mutex<Vec<(String, std::fs::Metadata)>>,
    max: usize,
    mine: Vec<(String, std::fs::Metadata)>,
}

impl ignore::ParallelVisitor for Lister<'_> {
    fn visit(&mut self, entry: Result<ignore::DirEntry, ignore::Error>) -> ignore::WalkState {
        let Ok(entry) = entry else { return ignore::WalkState::Continue };
        let is_file = entry.file_type().is_some_and(|t| t.is_file() || t.is_symlink());
        // Half-written by a restore cut short; recovery removes them.
        if !is_file || entry.file_name().to_string_lossy().contains(".braid-") {
            return ignore::WalkState::Continue;
        }
        let Some(rel) = relative(self.root, entry.path()) else { return ignore::WalkState::Continue };
        if let Ok(meta) = entry.metadata() {
            self.mine.push((rel, meta));
        }
        if self.mine.len() >= self.max {
            return ignore::WalkState::Quit;
        }
        ignore::WalkState::Continue
    }
}

impl Drop for Lister<'_> {
    fn drop(&mut self) {
        let mut found = self.found.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let room = self.max.saturating_sub(found.len());
        found.extend(self.mine.drain(..).take(room));
    }
}

/// The bytes a file of this kind is kept as.
pub(crate) fn read(path: &Path, kind: Kind) -> std::io::Result<Vec<u8>> {
    match kind {
        Kind::Symlink => Ok(std::fs::read_link(path)?.as_os_str().as_encoded_bytes().to_vec()),
        Kind::File | Kind::Executable => std::fs::read(path),
    }
}

fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<&str> = rel.iter().map(|p| p.to_str()).collect::<Option<_>>()?;
    (!parts.is_empty()).then(|| parts.join("/"))
}

fn now_ns() -> i128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i128)
}
