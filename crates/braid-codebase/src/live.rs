//! A workspace's live index: built in the background (progress reported,
//! cancellable), caught up from its stored copy after a restart, and kept
//! current by watching every folder it covers. A question first applies
//! the changes the watcher has seen, so no answer comes from stale data.

use crate::index::{relative, walker, Cancelled, Index};
use braid_protocol::{CodebaseIndex, IndexState};
use notify::{RecursiveMode, Watcher};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard};
use std::time::{Duration, Instant};
use tree_sitter_tags::TagsContext;

/// Changes are saved to disk at most this often.
const SAVE_EVERY: Duration = Duration::from_secs(5);

pub type OnStatus = Arc<dyn Fn(&CodebaseIndex) + Send + Sync>;

pub struct LiveIndex {
    root: PathBuf,
    store: PathBuf,
    index: RwLock<Index>,
    /// Paths the watcher reported since they were last applied.
    dirty: Mutex<BTreeSet<PathBuf>>,
    status: Mutex<CodebaseIndex>,
    settled: Condvar,
    cancel: AtomicBool,
    /// A build thread is running: a second is never started beside it.
    running: AtomicBool,
    watcher: Mutex<Option<notify::RecommendedWatcher>>,
    /// Some folder could not be watched: questions check every file's
    /// time instead of trusting the watcher.
    watch_incomplete: AtomicBool,
    on_status: OnStatus,
    last_save: Mutex<Instant>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl LiveIndex {
    /// Starts indexing `root` on a thread of its own; `store` is where its
    /// copy lives between runs.
    pub fn open(root: PathBuf, store: PathBuf, on_status: OnStatus) -> Arc<LiveIndex> {
        let live = Arc::new(LiveIndex {
            status: Mutex::new(CodebaseIndex {
                root: root.display().to_string(),
                state: IndexState::Building,
                done: 0,
                total: 0,
                files: 0,
                parsed: 0,
                symbols: 0,
                build_ms: 0,
                error: None,
            }),
            index: RwLock::new(Index::empty(root.clone())),
            root,
            store,
            dirty: Mutex::new(BTreeSet::new()),
            settled: Condvar::new(),
            cancel: AtomicBool::new(false),
            running: AtomicBool::new(false),
            watcher: Mutex::new(None),
            watch_incomplete: AtomicBool::new(false),
            on_status,
            last_save: Mutex::new(Instant::now()),
        });
        live.start_build();
        live
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn status(&self) -> CodebaseIndex {
        lock(&self.status).clone()
    }

    /// Stops a build under way; the tools then walk the files themselves.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Builds again (after a cancel, or on the user's word).
    pub fn start_build(self: &Arc<Self>) {
        if self.running.swap(true, Ordering::SeqCst) {
            return;
        }
        {
            let mut s = lock(&self.status);
            s.state = IndexState::Building;
            s.done = 0;
            s.total = 0;
            s.error = None;
        }
        self.cancel.store(false, Ordering::Relaxed);
        let live = self.clone();
        let spawned = std::thread::Builder::new().name("braid-index".into()).spawn(move || live.build());
        if let Err(e) = spawned {
            self.finish(IndexState::Failed, Some(format!("could not start indexing: {e}")), 0);
        }
    }

    fn build(self: Arc<Self>) {
        let started = Instant::now();
        // Watch first: a change made during the walk is not lost.
        self.watch_root();
        let mut index = Index::load(&self.store, &self.root).unwrap_or_else(|| Index::empty(self.root.clone()));
        let progress = |done: usize, total: usize| {
            let status = {
                let mut s = lock(&self.status);
                s.done = done as u32;
                s.total = total as u32;
                s.clone()
            };
            (self.on_status)(&status);
        };
        match index.catch_up(&self.cancel, &progress) {
            Ok(stats) => {
                self.watch_dirs(&index.dirs);
                *self.index.write().unwrap_or_else(PoisonError::into_inner) = index;
                self.save();
                tracing::info!(root = %self.root.display(), files = stats.files, parsed = stats.parsed, "codebase indexed");
                lock(&self.status).parsed = stats.parsed as u32;
                self.finish(IndexState::Ready, None, started.elapsed().as_millis() as u64);
            }
            Err(Cancelled) => self.finish(IndexState::Cancelled, None, started.elapsed().as_millis() as u64),
        }
    }

    fn finish(&self, state: IndexState, error: Option<String>, ms: u64) {
        let status = {
            let mut s = lock(&self.status);
            let index = self.index.read().unwrap_or_else(PoisonError::into_inner);
            // Under the status lock: a build asked for from now on starts
            // after this one's state is written.
            self.running.store(false, Ordering::SeqCst);
            s.state = state;
            s.error = error;
            s.build_ms = ms;
            s.files = index.files.len() as u32;
            s.symbols = index.symbol_count() as u32;
            s.clone()
        };
        self.settled.notify_all();
        (self.on_status)(&status);
    }

    /// Waits for a build under way (up to `limit`), then applies every
    /// change seen since, and hands out the index. Err: not built (still
    /// building after `limit`, cancelled or failed), with the status.
    pub fn fresh(&self, limit: Duration) -> Result<RwLockReadGuard<'_, Index>, CodebaseIndex> {
        {
            let s = lock(&self.status);
            let (s, _) = self
                .settled
                .wait_timeout_while(s, limit, |s| s.state == IndexState::Building)
                .unwrap_or_else(PoisonError::into_inner);
            if s.state != IndexState::Ready {
                return Err(s.clone());
            }
        }
        if self.watch_incomplete.load(Ordering::Relaxed) {
            self.mark_changed_by_time();
        }
        self.apply_dirty();
        Ok(self.index.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Reads `paths` again if their size or time differ from the index's:
    /// the answer's own files are checked, in case the watcher's event
    /// for an edit made a moment ago has not arrived yet. True if any did.
    pub fn verify<'a>(&self, paths: impl IntoIterator<Item = &'a str>) -> bool {
        let stale: Vec<PathBuf> = {
            let index = self.index.read().unwrap_or_else(PoisonError::into_inner);
            paths
                .into_iter()
                .filter(|rel| {
                    let now = std::fs::metadata(self.root.join(rel)).ok().map(|m| crate::index::stamp(&m));
                    now != index.files.get(*rel).map(|f| (f.mtime, f.size))
                })
                .map(|rel| self.root.join(rel))
                .collect()
        };
        if stale.is_empty() {
            return false;
        }
        lock(&self.dirty).extend(stale);
        self.apply_dirty();
        true
    }

    /// Compares the whole workspace with the index (a walk, no reading)
    /// and applies what differs: files made, changed or removed since.
    /// True if anything did.
    pub fn sweep(&self) -> bool {
        let listed = Index::listing(self.root.clone());
        let changed: Vec<PathBuf> = {
            let index = self.index.read().unwrap_or_else(PoisonError::into_inner);
            let differs = listed
                .files
                .iter()
                .filter(|(rel, f)| index.files.get(*rel).is_none_or(|e| (e.mtime, e.size) != (f.mtime, f.size)));
            let gone = index.files.keys().filter(|rel| !listed.files.contains_key(*rel));
            differs.map(|(rel, _)| rel).chain(gone).map(|rel| self.root.join(rel)).collect()
        };
        if changed.is_empty() {
            return false;
        }
        lock(&self.dirty).extend(changed);
        self.apply_dirty();
        true
    }

    /// Applies the watcher's changes: each path read again (or dropped),
    /// a new folder walked and watched.
    pub fn apply_dirty(&self) {
        let paths = std::mem::take(&mut *lock(&self.dirty));
        if paths.is_empty() {
            return;
        }
        let mut ctx = TagsContext::new();
        let mut new_dirs = Vec::new();
        {
            let mut index = self.index.write().unwrap_or_else(PoisonError::into_inner);
            for path in paths {
                if path.is_dir() {
                    if !ignored(&path) {
                        for e in walker(&path).build().flatten().filter(|e| e.file_type().is_some_and(|t| t.is_file()))
                        {
                            index.update(&mut ctx, e.path(), false);
                        }
                        new_dirs.push(path);
                    }
                    continue;
                }
                let ignored = ignored(&path);
                index.update(&mut ctx, &path, ignored);
                // A folder removed: its files go with it.
                if !path.exists() {
                    if let Some(rel) = relative(&self.root, &path) {
                        let prefix = format!("{rel}/");
                        index.files.retain(|k, _| !k.starts_with(&prefix));
                    }
                }
            }
        }
        self.watch_dirs(&new_dirs);
        let mut last = lock(&self.last_save);
        if last.elapsed() >= SAVE_EVERY {
            *last = Instant::now();
            drop(last);
            self.save();
        }
    }

    /// Checks every file's time (when the watcher cannot cover them all).
    fn mark_changed_by_time(&self) {
        let files: Vec<String> =
            self.index.read().unwrap_or_else(PoisonError::into_inner).files.keys().cloned().collect();
        self.verify(files.iter().map(String::as_str));
    }

    pub fn save(&self) {
        let index = self.index.read().unwrap_or_else(PoisonError::into_inner);
        if let Err(e) = index.save(&self.store) {
            tracing::warn!(file = %self.store.display(), error = %e, "the codebase index was not saved");
        }
    }

    fn watch_root(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else { return };
            if matches!(event.kind, notify::EventKind::Access(_)) {
                return;
            }
            if let Some(live) = weak.upgrade() {
                lock(&live.dirty).extend(event.paths);
            }
        });
        match watcher {
            Ok(w) => *lock(&self.watcher) = Some(w),
            Err(e) => {
                tracing::warn!(error = %e, "file watching is unavailable; the index checks file times instead");
                self.watch_incomplete.store(true, Ordering::Relaxed);
            }
        }
        self.watch_dirs(std::slice::from_ref(&self.root));
    }

    /// One watch per folder the walk covers (ignored ones, such as
    /// `target/` or `node_modules/`, are never watched).
    fn watch_dirs(&self, dirs: &[PathBuf]) {
        let mut watcher = lock(&self.watcher);
        let Some(w) = watcher.as_mut() else { return };
        for dir in dirs {
            if let Err(e) = w.watch(dir, RecursiveMode::NonRecursive) {
                tracing::warn!(folder = %dir.display(), error = %e, "cannot watch folder; checking file times instead");
                self.watch_incomplete.store(true, Ordering::Relaxed);
                return;
            }
        }
    }
}

/// Whether ripgrep's rules leave `path` out: its folder is listed with
/// the ignore files above it, and the path must come back.
fn ignored(path: &Path) -> bool {
    let Some(parent) = path.parent() else { return true };
    if !path.exists() {
        return false;
    }
    !walker(parent).max_depth(Some(1)).build().flatten().any(|e| e.path() == path)
}
