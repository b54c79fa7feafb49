//! Files in play: watching their folders, and looking at them again when
//! the watcher says one moved. What is found is handed to the machine as a
//! fact (`FileChecked`, or the changed files of a prepared request); what
//! to tell the user and the model, and how often, is the machine's call.

use super::ContextActor;
use braid_core::fit::{FileChange, FileChangeKind};
use braid_core::machine::Event;
use braid_protocol::{FileInPlay, FileState};
use braid_workspace::freshness::Freshness;
use std::path::{Path, PathBuf};
use std::sync::PoisonError;

impl ContextActor {
    /// Watches the folders of every file in play (after reads and writes).
    pub(super) fn cover_files(&mut self) {
        let freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
        let watch = self.watch.get_or_insert_with(|| crate::watch::FileWatch::new(self.mailbox.clone()));
        watch.cover(freshness.tracked());
    }

    /// A watched file's event: tell the machine how the file stands now.
    pub(super) fn check_file(&mut self, path: &Path) {
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
        let root = PathBuf::from(&self.meta.working_dir);
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
                FileInPlay { path: braid_workspace::paths::shown(&root, &p), state }
            })
            .collect()
    }

    fn shown(&self, path: &Path) -> String {
        braid_workspace::paths::shown(&PathBuf::from(&self.meta.working_dir), path)
    }
}

fn change_kind(how: &Freshness) -> Option<FileChangeKind> {
    match how {
        Freshness::ModifiedExternally { size_before, size_now, .. } => {
            Some(FileChangeKind::Modified { size_before: *size_before, size_now: *size_now })
        }
        Freshness::Deleted => Some(FileChangeKind::Deleted),
        _ => None,
    }
}
