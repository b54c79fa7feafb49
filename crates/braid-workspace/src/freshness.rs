//! File freshness: what the agent read or wrote, and whether the file
//! changed outside Braid since. A change counts only when the content's
//! hash differs: a touch, or a save without changes, is not a change.
//! The records outlive the app (the runtime stores them with the tool
//! result that made them), so the hash is a stable one (SHA-256), and a
//! file replaced by another is hashed even when its size and mtime match
//! the record (its status-change time moved).

use sha2::{Digest, Sha256};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRecord {
    /// When the agent (a tool or a reference) last read it.
    pub read_at: Option<SystemTime>,
    /// When the agent last wrote it.
    pub agent_edit_at: Option<SystemTime>,
    pub mtime: Option<SystemTime>,
    pub size: u64,
    /// The first 8 bytes of the content's SHA-256.
    pub hash: u64,
    /// When the file's inode last changed (Unix ctime): a file deleted and
    /// created again, even with the old mtime set back, has a new one.
    pub ctime: Option<SystemTime>,
    /// The latest read or write, for ordering the files in play.
    pub last_access: SystemTime,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Freshness {
    /// As the agent last saw it (or never seen: nothing to compare).
    Fresh,
    ModifiedExternally {
        modified_at: Option<SystemTime>,
        size_before: u64,
        size_now: u64,
        /// The hash of the content now: one value per distinct change.
        hash_now: u64,
    },
    Deleted,
    Unknown,
}

/// Per conversation; paths are real (confined) paths.
#[derive(Debug, Default, Clone)]
pub struct FileFreshness {
    files: HashMap<PathBuf, FileRecord>,
    /// Records changed since the runtime last stored them.
    unsaved: BTreeSet<PathBuf>,
}

struct Fingerprint {
    mtime: Option<SystemTime>,
    size: u64,
    hash: u64,
    ctime: Option<SystemTime>,
}

fn fingerprint(path: &Path) -> Option<Fingerprint> {
    let meta = std::fs::metadata(path).ok()?;
    let bytes = std::fs::read(path).ok()?;
    Some(Fingerprint { mtime: meta.modified().ok(), size: meta.len(), hash: content_hash(&bytes), ctime: ctime(&meta) })
}

/// Stable across runs and Rust versions, unlike `DefaultHasher`.
pub fn content_hash(bytes: &[u8]) -> u64 {
    let digest = Sha256::digest(bytes);
    u64::from_be_bytes(digest[..8].try_into().unwrap_or_default())
}

#[cfg(unix)]
fn ctime(meta: &std::fs::Metadata) -> Option<SystemTime> {
    use std::os::unix::fs::MetadataExt;
    let since = std::time::Duration::new(u64::try_from(meta.ctime()).ok()?, u32::try_from(meta.ctime_nsec()).ok()?);
    Some(SystemTime::UNIX_EPOCH + since)
}

#[cfg(not(unix))]
fn ctime(_meta: &std::fs::Metadata) -> Option<SystemTime> {
    None
}

impl FileFreshness {
    pub fn new() -> FileFreshness {
        FileFreshness::default()
    }

    /// The agent read `path` now (its content is what it saw).
    pub fn record_read(&mut self, path: &Path, now: SystemTime) {
        self.record(path, now, false);
    }

    /// The agent wrote `path` now: it is fresh again and no longer in
    /// conflict.
    pub fn record_edit(&mut self, path: &Path, now: SystemTime) {
        self.record(path, now, true);
    }

    fn record(&mut self, path: &Path, now: SystemTime, edit: bool) {
        let Some(Fingerprint { mtime, size, hash, ctime }) = fingerprint(path) else { return };
        let entry = self.files.entry(path.to_path_buf()).or_insert(FileRecord {
            read_at: None,
            agent_edit_at: None,
            mtime,
            size,
            hash,
            ctime,
            last_access: now,
        });
        entry.mtime = mtime;
        entry.size = size;
        entry.hash = hash;
        entry.ctime = ctime;
        entry.last_access = now;
        self.unsaved.insert(path.to_path_buf());
        if edit {
            entry.agent_edit_at = Some(now);
        } else {
            entry.read_at = Some(now);
        }
    }

    /// Every file the agent read or wrote.
    pub fn tracked(&self) -> impl Iterator<Item = &Path> {
        self.files.keys().map(PathBuf::as_path)
    }

    pub fn record_of(&self, path: &Path) -> Option<&FileRecord> {
        self.files.get(path)
    }

    /// Whether the agent read or wrote `path` in this conversation.
    pub fn seen(&self, path: &Path) -> bool {
        self.files.get(path).is_some_and(|r| r.read_at.is_some() || r.agent_edit_at.is_some())
    }

    /// Records loaded from the store (they are saved already).
    pub fn restore(&mut self, records: impl IntoIterator<Item = (PathBuf, FileRecord)>) {
        self.files.extend(records);
    }

    /// The records changed since the last call, to be stored; hand them
    /// back with [`FileFreshness::unsaved_again`] if storing failed.
    pub fn take_unsaved(&mut self) -> Vec<(PathBuf, FileRecord)> {
        std::mem::take(&mut self.unsaved)
            .into_iter()
            .filter_map(|p| self.files.get(&p).map(|r| (p.clone(), r.clone())))
            .collect()
    }

    pub fn unsaved_again(&mut self, paths: impl IntoIterator<Item = PathBuf>) {
        self.unsaved.extend(paths);
    }

    /// Whether `path` is as the agent last saw it. The content is hashed
    /// only when size or mtime moved.
    pub fn check(&self, path: &Path) -> Freshness {
        let Some(rec) = self.files.get(path) else { return Freshness::Unknown };
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Freshness::Deleted,
            Err(_) => return Freshness::Unknown,
        };
        // A file created again can match in size and mtime (`cp -p`, an
        // archive, an mtime set back): its new ctime has it hashed.
        if meta.len() == rec.size && meta.modified().ok() == rec.mtime && ctime(&meta) == rec.ctime {
            return Freshness::Fresh;
        }
        match fingerprint(path) {
            Some(now) if now.hash == rec.hash => Freshness::Fresh,
            Some(now) => Freshness::ModifiedExternally {
                modified_at: now.mtime,
                size_before: rec.size,
                size_now: now.size,
                hash_now: now.hash,
            },
            None => Freshness::Deleted,
        }
    }

    /// Files the agent read that changed outside Braid since, with how.
    pub fn changed(&self) -> Vec<(PathBuf, Freshness)> {
        let mut out: Vec<(PathBuf, Freshness)> = self
            .files
            .iter()
            .filter(|(_, r)| r.read_at.is_some() || r.agent_edit_at.is_some())
            .map(|(p, _)| (p.clone(), self.check(p)))
            .filter(|(_, f)| matches!(f, Freshness::ModifiedExternally { .. } | Freshness::Deleted))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// The files in play, most recently used first, without dependency
    /// and build folders (`.git`, `node_modules`, `target`, …) or what
    /// `.gitignore` ignores; at most `limit`.
    pub fn important_files(&self, workspace: &Path, limit: usize) -> Vec<PathBuf> {
        const SKIP: &[&str] = &[".git", "node_modules", "target", "dist", "build", ".venv", "__pycache__"];
        let gitignore = ignore::gitignore::GitignoreBuilder::new(workspace);
        let gitignore = {
            let mut b = gitignore;
            let _ = b.add(workspace.join(".gitignore"));
            b.build().ok()
        };
        let mut files: Vec<(&PathBuf, &FileRecord)> = self
            .files
            .iter()
            .filter(|(p, _)| {
                let rel = p.strip_prefix(workspace).unwrap_or(p);
                !rel.components().any(|c| SKIP.iter().any(|s| c.as_os_str() == *s))
            })
            .filter(|(p, _)| gitignore.as_ref().is_none_or(|g| !g.matched_path_or_any_parents(p, false).is_ignore()))
            .collect();
        files.sort_by_key(|f| std::cmp::Reverse(f.1.last_access));
        files.into_iter().take(limit).map(|(p, _)| p.clone()).collect()
    }
}
