//! The index of one workspace: every file ripgrep would search (the
//! `.gitignore` rules kept), with its size and time for freshness, its
//! line count, and the symbols of the languages we parse. Built in
//! parallel, caught up from a stored copy file by file, saved as JSON.

use crate::lang::Lang;
use crate::symbols::{extract, FileSymbols};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::UNIX_EPOCH;
use tree_sitter_tags::TagsContext;

/// Files larger than this are listed but neither parsed nor counted (a
/// generated bundle, a data file).
pub const MAX_PARSED_BYTES: u64 = 1024 * 1024;
/// The stored format; a copy of another version is rebuilt.
const VERSION: u32 = 1;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// Nanoseconds since the epoch: with the size, how a change is seen.
    pub mtime: u64,
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<Lang>,
    /// 0 for a binary or oversized file.
    pub lines: u32,
    #[serde(default)]
    pub symbols: FileSymbols,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Index {
    version: u32,
    pub root: PathBuf,
    /// By path relative to the root, with `/` between parts.
    pub files: BTreeMap<String, FileEntry>,
    /// The folders the last walk went through (the ones to watch).
    #[serde(skip)]
    pub dirs: Vec<PathBuf>,
}

/// What a build did, for its status line and the benchmark.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BuildStats {
    pub files: usize,
    /// Files read and parsed again (the rest were unchanged).
    pub parsed: usize,
    pub symbols: usize,
}

/// Why a build stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cancelled;

/// A file's size and time as the index records them.
pub fn stamp(meta: &std::fs::Metadata) -> (u64, u64) {
    let mtime = meta.modified().ok().and_then(|t| t.duration_since(UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as u64);
    (mtime, meta.len())
}

/// The walker ripgrep uses, with `.gitignore` honoured outside a git
/// repository too (a fixture, a fresh folder) and hidden files skipped.
pub fn walker(root: &Path) -> ignore::WalkBuilder {
    let mut w = ignore::WalkBuilder::new(root);
    w.require_git(false).follow_links(false);
    w
}

/// The relative path of `path` under `root`, `/`-separated.
pub fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<&str> = rel.components().filter_map(|c| c.as_os_str().to_str()).collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Reads and parses one file. None if it cannot be read.
pub fn read_entry(ctx: &mut TagsContext, path: &Path) -> Option<FileEntry> {
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    let (mtime, size) = stamp(&meta);
    let lang = Lang::of(path);
    let mut entry = FileEntry { mtime, size, lang, lines: 0, symbols: FileSymbols::default() };
    if size > MAX_PARSED_BYTES {
        return Some(entry);
    }
    let bytes = std::fs::read(path).ok()?;
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Some(entry);
    }
    entry.lines =
        bytes.iter().filter(|&&b| b == b'\n').count() as u32 + u32::from(!bytes.ends_with(b"\n") && !bytes.is_empty());
    if let Some(lang) = lang {
        entry.symbols = extract(ctx, lang, &bytes);
    }
    Some(entry)
}

impl Index {
    pub fn empty(root: PathBuf) -> Index {
        Index { version: VERSION, root, files: BTreeMap::new(), dirs: Vec::new() }
    }

    pub fn symbol_count(&self) -> usize {
        self.files.values().map(|f| f.symbols.defs.iter().filter(|d| !d.is_scope_only()).count()).sum()
    }

    /// Walks the workspace and brings the index up to it: unchanged files
    /// are kept, changed and new ones parsed (on every core), gone ones
    /// dropped. `progress(done, total)` is called as files are parsed.
    pub fn catch_up(
        &mut self,
        cancel: &AtomicBool,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<BuildStats, Cancelled> {
        let (seen, dirs) = walk(&self.root, cancel)?;
        self.dirs = dirs;
        self.files.retain(|rel, _| seen.contains_key(rel));
        let stale: Vec<(String, PathBuf)> = seen
            .into_iter()
            .filter(|(rel, (_, mtime, size))| self.files.get(rel).is_none_or(|f| f.mtime != *mtime || f.size != *size))
            .map(|(rel, (path, _, _))| (rel, path))
            .collect();
        let parsed = stale.len();
        for (rel, entry) in parse_all(&stale, cancel, progress)? {
            self.files.insert(rel, entry);
        }
        Ok(BuildStats { files: self.files.len(), parsed, symbols: self.symbol_count() })
    }

    /// The files alone, unparsed (the tools' fallback when the user
    /// stopped the build): search works, without widening.
    pub fn listing(root: PathBuf) -> Index {
        let mut index = Index::empty(root);
        let (files, _) = walk(&index.root, &AtomicBool::new(false)).unwrap_or_default();
        for (rel, (path, mtime, size)) in files {
            // Binary files are told apart by the searcher as it reads.
            index.files.insert(
                rel,
                FileEntry { mtime, size, lang: Lang::of(&path), lines: 1, symbols: FileSymbols::default() },
            );
        }
        index
    }

    /// Reads one file again (or drops it, gone or now ignored).
    pub fn update(&mut self, ctx: &mut TagsContext, path: &Path, ignored: bool) {
        let Some(rel) = relative(&self.root, path) else { return };
        match read_entry(ctx, path).filter(|_| !ignored) {
            Some(entry) => {
                self.files.insert(rel, entry);
            }
            None => {
                self.files.remove(&rel);
            }
        }
    }

    pub fn load(file: &Path, root: &Path) -> Option<Index> {
        let text = std::fs::read(file).ok()?;
        let index: Index = serde_json::from_slice(&text).ok()?;
        (index.version == VERSION && index.root == root).then_some(index)
    }

    /// Written beside and renamed over, so a crash leaves the old copy.
    pub fn save(&self, file: &Path) -> std::io::Result<()> {
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = file.with_extension("tmp");
        std::fs::write(&tmp, serde_json::to_vec(self)?)?;
        std::fs::rename(tmp, file)
    }
}

type Walked = (BTreeMap<String, (PathBuf, u64, u64)>, Vec<PathBuf>);

/// Every file the walker yields (by relative path: its path, time and
/// size) and every folder it went through.
fn walk(root: &Path, cancel: &AtomicBool) -> Result<Walked, Cancelled> {
    let (mut files, mut dirs) = (BTreeMap::new(), Vec::new());
    for entry in walker(root).build().flatten() {
        if cancel.load(Ordering::Relaxed) {
            return Err(Cancelled);
        }
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            dirs.push(entry.into_path());
            continue;
        }
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let (Some(rel), Ok(meta)) = (relative(root, entry.path()), entry.metadata()) else { continue };
        let (mtime, size) = stamp(&meta);
        files.insert(rel, (entry.into_path(), mtime, size));
    }
    Ok((files, dirs))
}

/// Parses files on every core, each worker with its own parser.
fn parse_all(
    files: &[(String, PathBuf)],
    cancel: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<(String, FileEntry)>, Cancelled> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let out = Mutex::new(Vec::with_capacity(files.len()));
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let mut ctx = TagsContext::new();
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= files.len() || cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let (rel, path) = &files[i];
                    if let Some(entry) = read_entry(&mut ctx, path) {
                        mine.push((rel.clone(), entry));
                    }
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if n.is_multiple_of(200) || n == files.len() {
                        progress(n, files.len());
                    }
                }
                out.lock().unwrap_or_else(std::sync::PoisonError::into_inner).extend(mine);
            });
        }
    });
    if cancel.load(Ordering::Relaxed) {
        return Err(Cancelled);
    }
    Ok(out.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
}
