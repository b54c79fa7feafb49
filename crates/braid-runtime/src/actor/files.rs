//! Files in play: their records stored with the transition that follows
//! a read or write and loaded with the conversation, their folders
//! watched, and each looked at again when the watcher says it moved (or
//! when the conversation opens). What is found is handed to the machine as
//! a fact (`FileChecked`, `FilesChangedWhileClosed`, or the changed files
//! of a prepared request); what to tell the user and the model, and how
//! often, is the machine's call.

use super::ContextActor;
use braid_core::fit::{FileChange, FileChangeKind};
use braid_core::machine::Event;
use braid_protocol::{FileInPlay, FileState};
use braid_store::FileRow;
use braid_workspace::freshness::{FileRecord, Freshness};
use std::path::{Path, PathBuf};
use std::sync::PoisonError;
use std::time::{Duration, SystemTime};

impl ContextActor {
    /// Loads the stored records and looks at each file: the changes found
    /// happened while Braid was closed, and go to the machine.
    pub(super) fn restore_files(&mut self) {
        let rows = match self.shared.lock_store().load_files(&self.ctx.meta.id) {
            Ok(rows) => rows,
            Err(e) => {
                tracing::warn!(context = %self.ctx.meta.id, error = %e, "file records did not load");
                return;
            }
        };
        if rows.is_empty() {
            return;
        }
        self.freshness.lock().unwrap_or_else(PoisonError::into_inner).restore(rows.into_iter().map(live));
        let changes = self.changed_files();
        let root = PathBuf::from(self.ctx.folder());
        self.changed_while_closed = changes.iter().map(|c| root.join(&c.path)).collect();
        self.cover_files();
        if !changes.is_empty() {
            let _ = self.mailbox.send(super::Input::Event(Event::FilesChangedWhileClosed { changes }));
        }
    }

    /// The records the agent's reads and writes changed since the last
    /// transition, to be stored with this one.
    pub(super) fn unsaved_files(&self) -> Vec<FileRow> {
        let unsaved = self.freshness.lock().unwrap_or_else(PoisonError::into_inner).take_unsaved();
        unsaved.iter().filter_map(|(p, r)| stored(p, r)).collect()
    }

    /// Storing failed: they go with the next transition.
    pub(super) fn unsaved_again(&self, rows: Vec<FileRow>) {
        let paths = rows.into_iter().map(|r| PathBuf::from(r.path));
        self.freshness.lock().unwrap_or_else(PoisonError::into_inner).unsaved_again(paths);
    }

    /// Watches the folders of every file in play (after reads and writes).
    pub(super) fn cover_files(&mut self) {
        if self.watch.is_none() {
            self.watch = Some(crate::watch::FileWatch::new(self.reports()));
        }
        let freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(watch) = &mut self.watch {
            watch.cover(freshness.tracked());
        }
    }

    /// A watched file's event: tell the machine how the file stands now.
    pub(super) fn check_file(&mut self, path: &Path) {
        // Seen moving now: no longer a change from while Braid was closed.
        self.changed_while_closed.remove(path);
        let how = {
            let freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
            if freshness.record_of(path).is_none() {
                return;
            }
            freshness.check(path)
        };
        let path = self.shown(path);
        self.apply(Event::FileChecked { path, change: change_kind(&how) });
    }

    /// Files the agent read that changed outside Braid since.
    pub(super) fn changed_files(&self) -> Vec<FileChange> {
        let changed = self.freshness.lock().unwrap_or_else(PoisonError::into_inner).changed();
        changed
            .into_iter()
            .filter_map(|(path, how)| change_kind(&how).map(|kind| FileChange { path: self.shown(&path), kind }))
            .collect()
    }

    /// The files in play (at most 30), most recent first, with their state.
    pub(super) fn files_in_play(&self) -> Vec<FileInPlay> {
        let root = PathBuf::from(self.ctx.folder());
        let freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
        freshness
            .important_files(&root, 30)
            .into_iter()
            .map(|p| {
                let state = match freshness.check(&p) {
                    Freshness::ModifiedExternally { .. } => FileState::ChangedOutside,
                    Freshness::Deleted => FileState::Deleted,
                    _ => FileState::Fresh,
                };
                let while_closed = state != FileState::Fresh && self.changed_while_closed.contains(&p);
                FileInPlay { path: braid_workspace::paths::shown(&root, &p), state, while_closed }
            })
            .collect()
    }

    pub(super) fn shown(&self, path: &Path) -> String {
        braid_workspace::paths::shown(&PathBuf::from(self.ctx.folder()), path)
    }
}

fn change_kind(how: &Freshness) -> Option<FileChangeKind> {
    match how {
        Freshness::ModifiedExternally { size_before, size_now, hash_now, .. } => {
            Some(FileChangeKind::Modified { size_before: *size_before, size_now: *size_now, content: *hash_now })
        }
        Freshness::Deleted => Some(FileChangeKind::Deleted),
        _ => None,
    }
}

fn ms(t: SystemTime) -> i64 {
    t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn ns(t: SystemTime) -> Option<i64> {
    t.duration_since(SystemTime::UNIX_EPOCH).ok().and_then(|d| i64::try_from(d.as_nanos()).ok())
}

fn from_ms(v: i64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(u64::try_from(v).unwrap_or(0))
}

fn from_ns(v: i64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_nanos(u64::try_from(v).unwrap_or(0))
}

/// A record as stored; a path that is not UTF-8 is not stored (it is
/// then unread after a restart, which errs on the safe side).
fn stored(path: &Path, r: &FileRecord) -> Option<FileRow> {
    Some(FileRow {
        path: path.to_str()?.to_owned(),
        read_at: r.read_at.map(ms),
        edit_at: r.agent_edit_at.map(ms),
        mtime_ns: r.mtime.and_then(ns),
        size: r.size,
        hash: r.hash,
        ctime_ns: r.ctime.and_then(ns),
        last_access: ms(r.last_access),
    })
}

fn live(row: FileRow) -> (PathBuf, FileRecord) {
    let record = FileRecord {
        read_at: row.read_at.map(from_ms),
        agent_edit_at: row.edit_at.map(from_ms),
        mtime: row.mtime_ns.map(from_ns),
        size: row.size,
        hash: row.hash,
        ctime: row.ctime_ns.map(from_ns),
        last_access: from_ms(row.last_access),
    };
    (PathBuf::from(row.path), record)
}
