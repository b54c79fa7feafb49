//! Real file watching for a conversation's files in play: one watch per
//! folder holding a file the agent read or wrote (not the whole
//! workspace, which may be a home directory). An event is checked a moment
//! later, after the agent's own write has been recorded, and only a real
//! change of content is reported.

use crate::report::Reports;
use notify::{RecursiveMode, Watcher};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long an event waits before the file is checked.
const SETTLE: Duration = Duration::from_millis(300);

pub struct FileWatch {
    watcher: Option<notify::RecommendedWatcher>,
    folders: HashSet<PathBuf>,
}

impl FileWatch {
    pub fn new(reports: Reports) -> FileWatch {
        let handle = tokio::runtime::Handle::try_current().ok();
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else { return };
            if matches!(event.kind, notify::EventKind::Access(_)) {
                return;
            }
            for path in event.paths {
                let reports = reports.clone();
                if let Some(rt) = &handle {
                    rt.spawn(async move {
                        tokio::time::sleep(SETTLE).await;
                        reports.check_file(path);
                    });
                }
            }
        });
        match watcher {
            Ok(w) => FileWatch { watcher: Some(w), folders: HashSet::new() },
            Err(e) => {
                tracing::warn!(error = %e, "file watching is unavailable; changes are found when files are used");
                FileWatch { watcher: None, folders: HashSet::new() }
            }
        }
    }

    /// Watches the folders of these files (each folder once).
    pub fn cover<'a>(&mut self, files: impl Iterator<Item = &'a Path>) {
        let Some(w) = self.watcher.as_mut() else { return };
        for folder in files.filter_map(Path::parent) {
            if self.folders.contains(folder) {
                continue;
            }
            match w.watch(folder, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    self.folders.insert(folder.to_path_buf());
                }
                Err(e) => tracing::warn!(folder = %folder.display(), error = %e, "cannot watch folder"),
            }
        }
    }
}
