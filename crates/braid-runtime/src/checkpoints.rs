//! Checkpoints of the folders conversations work in: the last snapshot of
//! each folder (kept on disk, so a restart compares with what was there),
//! settled before and after every tool call and agent run — what changed
//! before the call is the user's, what changed during it the model's —
//! and files put back, journaled, under the folder's lock.

use crate::report::Reports;
use braid_checkpoint::{changes, count_lines, Commit, Journal, Limits, Manifest, Objects};
use braid_core::machine::Event;
use braid_protocol::{ChangeAuthor, Checkpoint, CheckpointStorage, ContentHash, FileDelta, MessageId, RestoreTarget};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

pub(crate) struct Checkpoints {
    dir: PathBuf,
    /// Braid's own files: never part of a workspace's checkpoints.
    data: Vec<PathBuf>,
    objects: Objects,
    folders: Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<Option<Manifest>>>>>,
}

/// A folder held: no look, restore or merge of it meanwhile.
pub(crate) struct Held {
    _guard: tokio::sync::OwnedMutexGuard<Option<Manifest>>,
}

/// A change journaled, not yet written, the folder held meanwhile.
pub(crate) struct Prepared {
    held: tokio::sync::OwnedMutexGuard<Option<Manifest>>,
    root: PathBuf,
    journal: Journal,
    targets: Vec<RestoreTarget>,
}

/// What changed in a folder since it was last looked at, and the files
/// left out of the look (too large).
pub(crate) struct Settled {
    pub changes: Vec<FileDelta>,
    pub left_out: Vec<String>,
}

impl Checkpoints {
    /// The store in the app's data folder; `db` is the database's path.
    pub fn open(data_dir: &Path, db: &Path) -> Checkpoints {
        let dir = data_dir.join("checkpoints");
        let mut data: Vec<PathBuf> = ["checkpoints", "images", "processes", "codebase", "logs", "tool-pins.json"]
            .iter()
            .map(|n| data_dir.join(n))
            .collect();
        let name = db.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        data.extend(["", "-wal", "-shm", "-journal"].iter().map(|s| data_dir.join(format!("{name}{s}"))));
        data.push(data_dir.to_owned());
        Checkpoints { objects: Objects::new(dir.join("objects")), dir, data, folders: Mutex::default() }
    }

    /// What a scan of `root` leaves out: the data folder when it is inside
    /// the workspace, Braid's files in it when it is the workspace.
    fn limits(&self, root: &Path) -> Limits {
        let exclude = self.data.iter().filter(|p| p.starts_with(root) && p.as_path() != root).cloned().collect();
        Limits { exclude, ..Limits::default() }
    }

    /// A file name for what belongs to folder `root`.
    fn key(root: &Path) -> String {
        braid_checkpoint::hash_of(root.as_os_str().as_encoded_bytes()).0[..16].to_owned()
    }

    fn journal(&self, root: &Path) -> Journal {
        Journal::new(self.dir.join("journals").join(format!("{}.json", Checkpoints::key(root))))
    }

    fn manifest_path(&self, root: &Path) -> PathBuf {
        self.dir.join("manifests").join(format!("{}.json", Checkpoints::key(root)))
    }

    fn folder(&self, root: &Path) -> Arc<tokio::sync::Mutex<Option<Manifest>>> {
        let mut folders = self.folders.lock().unwrap_or_else(PoisonError::into_inner);
        folders.entry(root.to_owned()).or_default().clone()
    }

    /// Looks at `root` and keeps what it holds now. The first look at a
    /// folder (none kept on disk either) finds no changes: it is where
    /// the checkpoints start.
    pub async fn settle(&self, root: &Path) -> Result<Settled, String> {
        let folder = self.folder(root);
        let mut last = folder.lock().await;
        self.settle_held(root, &mut last).await
    }

    /// As [`Checkpoints::settle`], the folder's lock already held.
    async fn settle_held(&self, root: &Path, last: &mut Option<Manifest>) -> Result<Settled, String> {
        let (limits, objects, path) = (self.limits(root), self.objects.clone(), self.manifest_path(root));
        let root = root.to_owned();
        let before = last.take();
        let (result, kept) = tokio::task::spawn_blocking(move || {
            let before = before.or_else(|| read_manifest(&path));
            let scanned =
                braid_checkpoint::scan(&root, before.as_ref().unwrap_or(&Manifest::default()), &objects, limits);
            match scanned {
                Err(e) => (Err(e.to_string()), before),
                Ok(now) => {
                    let mut found = before.as_ref().map(|b| changes(b, &now)).unwrap_or_default();
                    count_lines(&objects, &mut found);
                    let settled = Settled {
                        changes: found,
                        left_out: now.skipped.iter().map(|s| format!("{} ({})", s.path, s.reason)).collect(),
                    };
                    if let Err(e) = write_manifest(&path, &now) {
                        tracing::warn!(error = %e, "the folder's snapshot was not saved; the next start rescans it");
                    }
                    (Ok(settled), Some(now))
                }
            }
        })
        .await
        .map_err(|e| e.to_string())?;
        *last = kept;
        result
    }

    /// Puts the targets back under `root` (journaled), then looks again:
    /// answered with what the restore changed, and the files left as they
    /// are because they changed since the plan was made (unless named in
    /// `overwrite`).
    pub async fn restore(
        &self,
        root: &Path,
        targets: Vec<RestoreTarget>,
        overwrite: &[String],
    ) -> Result<(Settled, Vec<String>), String> {
        let folder = self.folder(root);
        // One hold for the restore and the look after it: no other call's
        // look can take the restore's writes for the user's in between.
        let mut held = folder.lock().await;
        let kept = self.write_held(root, targets, overwrite).await?;
        Ok((self.settle_held(root, &mut held).await?, kept))
    }

    /// Holds `root` for a change planned and written under the hold
    /// ([`Checkpoints::write`]): two copies coming back are merged one
    /// after the other, each against what the other wrote.
    pub async fn hold(&self, root: &Path) -> Held {
        Held { _guard: self.folder(root).lock_owned().await }
    }

    /// Writes the targets under `root`, journaled, without looking after:
    /// the tool call running meanwhile (the `spawn_agents` a child's copy
    /// comes back in) takes them for its own changes. Answered with the
    /// files left as they are because they changed since the plan.
    pub async fn write(&self, _held: &Held, root: &Path, targets: Vec<RestoreTarget>) -> Result<Vec<String>, String> {
        self.write_held(root, targets, &[]).await
    }

    async fn write_held(
        &self,
        root: &Path,
        mut targets: Vec<RestoreTarget>,
        overwrite: &[String],
    ) -> Result<Vec<String>, String> {
        let (journal, objects, at) = (self.journal(root), self.objects.clone(), root.to_owned());
        let overwrite = overwrite.to_vec();
        tokio::task::spawn_blocking(move || {
            let changed = braid_checkpoint::conflicts(&at, &targets).map_err(|e| e.to_string())?;
            let kept: Vec<String> = changed.into_iter().map(|c| c.path).filter(|p| !overwrite.contains(p)).collect();
            targets.retain(|t| !kept.contains(&t.path));
            journal.restore(&at, &objects, &targets).map_err(|e| e.to_string())?;
            Ok::<_, String>(kept)
        })
        .await
        .map_err(|e| e.to_string())?
    }

    /// Looks at a folder that is no conversation's snapshot (a copy, for
    /// its baseline and what changed in it since): answered with what it
    /// holds now, compared with `previous`, the contents kept.
    pub async fn look(&self, root: &Path, previous: Manifest) -> Result<Manifest, String> {
        let (limits, objects, root) = (self.limits(root), self.objects.clone(), root.to_owned());
        tokio::task::spawn_blocking(move || {
            braid_checkpoint::scan(&root, &previous, &objects, limits).map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| e.to_string())?
    }

    /// Braid's own files under `root`: never copied, never scanned.
    pub fn own_files(&self, root: &Path) -> Vec<PathBuf> {
        self.limits(root).exclude
    }

    /// Journals a change of `root` whose record is stored next (a merge
    /// and its card), holding the folder until it is finished or dropped.
    /// Refused, nothing journaled, when a file is not what the plan
    /// expects: it changed since the plan was made.
    pub async fn prepare(&self, root: &Path, targets: Vec<RestoreTarget>, commit: Commit) -> Result<Prepared, String> {
        let held = self.folder(root).lock_owned().await;
        let (journal, objects, at) = (self.journal(root), self.objects.clone(), root.to_owned());
        let prepared = tokio::task::spawn_blocking(move || {
            let changed = braid_checkpoint::conflicts(&at, &targets).map_err(|e| e.to_string())?;
            if !changed.is_empty() {
                let paths: Vec<String> = changed.into_iter().map(|c| c.path).collect();
                return Err(format!("{} changed since the preview; look again", paths.join(", ")));
            }
            journal.prepare(&at, &objects, &targets, commit).map_err(|e| e.to_string())?;
            Ok((journal, targets))
        })
        .await
        .map_err(|e| e.to_string())??;
        Ok(Prepared { held, root: root.to_owned(), journal: prepared.0, targets: prepared.1 })
    }

    /// Writes a prepared change (its record is stored), then looks at
    /// the folder so the writes are not taken for the user's.
    pub async fn finish(&self, prepared: Prepared) -> Result<(), String> {
        let Prepared { mut held, root, journal, targets } = prepared;
        let (objects, at) = (self.objects.clone(), root.clone());
        tokio::task::spawn_blocking(move || journal.finish(&at, &objects, &targets).map_err(|e| e.to_string()))
            .await
            .map_err(|e| e.to_string())??;
        self.settle_held(&root, &mut held).await.map(drop)
    }

    /// Drops a prepared change whose record was not stored.
    pub fn abandon(&self, prepared: Prepared) {
        if let Err(e) = prepared.journal.abandon() {
            tracing::warn!(error = %e, "a dropped change's journal could not be removed");
        }
    }

    /// Keeps a content (a file as an undo makes it), by its name.
    pub fn put(&self, bytes: &[u8]) -> Result<ContentHash, String> {
        self.objects.put(bytes).map_err(|e| e.to_string())
    }

    /// A file's content as kept.
    pub fn content(&self, hash: &ContentHash) -> Result<Vec<u8>, String> {
        self.objects.get(hash).map_err(|e| e.to_string())
    }

    /// How long checkpoints are kept and their budget, as last saved.
    pub fn storage(&self) -> CheckpointStorage {
        std::fs::read(self.dir.join("storage.json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    pub fn save_storage(&self, storage: &CheckpointStorage) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| e.to_string())?;
        let json = serde_json::to_vec_pretty(storage).map_err(|e| e.to_string())?;
        std::fs::write(self.dir.join("storage.json"), json).map_err(|e| e.to_string())
    }

    pub fn size_on_disk(&self) -> u64 {
        self.objects.size_on_disk()
    }

    /// Removes the contents that nothing names any more: not the kept
    /// checkpoints (`named`), not the folders' last looks, not any written
    /// in the last ten minutes (a look may not have been saved yet).
    /// Answers the bytes freed.
    pub fn sweep(&self, mut named: HashSet<ContentHash>) -> u64 {
        let manifests = std::fs::read_dir(self.dir.join("manifests")).into_iter().flatten().flatten();
        for m in manifests.filter_map(|e| read_manifest(&e.path())) {
            named.extend(m.files.into_values().map(|f| f.version.hash));
        }
        let before = std::time::SystemTime::now() - std::time::Duration::from_secs(600);
        self.objects.sweep(&named, before)
    }

    /// Completes the restores a crash cut short, and the merges whose
    /// record `committed` finds (the others are dropped: nothing of them
    /// was written); says where, one line each.
    pub fn recover(&self, committed: &dyn Fn(&Commit, &[RestoreTarget]) -> bool) -> Vec<String> {
        let journals = std::fs::read_dir(self.dir.join("journals")).into_iter().flatten().flatten();
        let mut said = Vec::new();
        for entry in journals.filter(|e| e.path().extension().is_some_and(|x| x == "json")) {
            match Journal::new(entry.path()).recover(&self.objects, committed) {
                Ok(Some(r)) if r.completed => said.push(format!(
                    "A change of the files in {} was cut short; it was completed ({} files).",
                    r.root.display(),
                    r.files
                )),
                Ok(Some(r)) => said.push(format!(
                    "A merge in {} was cut short before it was recorded; none of its {} files was written.",
                    r.root.display(),
                    r.files
                )),
                Ok(None) => {}
                Err(e) => said.push(format!("A file restore cut short could not be completed: {e}")),
            }
        }
        said
    }
}

fn read_manifest(path: &Path) -> Option<Manifest> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn write_manifest(path: &Path, manifest: &Manifest) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_vec(manifest).map_err(std::io::Error::other)?)?;
    std::fs::rename(tmp, path)
}

/// A tool call or an agent run, watched: the folder settled before it
/// (the user's changes, on the turn's question) and after it (the
/// model's, on the message that made the call).
#[derive(Clone)]
pub(crate) struct Watch {
    pub checkpoints: Arc<Checkpoints>,
    pub root: PathBuf,
    pub question: Option<MessageId>,
    pub turn: MessageId,
}

impl Watch {
    pub async fn before(&self, reports: &Reports) {
        if let Some(question) = self.question {
            self.settle(reports, question, ChangeAuthor::User).await;
        } else if let Err(e) = self.checkpoints.settle(&self.root).await {
            tracing::warn!(error = %e, "the folder could not be checked before the call");
        }
    }

    pub async fn after(&self, reports: &Reports) {
        self.settle(reports, self.turn, ChangeAuthor::Model).await;
    }

    async fn settle(&self, reports: &Reports, message_id: MessageId, author: ChangeAuthor) {
        match self.checkpoints.settle(&self.root).await {
            Ok(s) if !s.changes.is_empty() => {
                let checkpoint = Checkpoint { id: 0, message_id, author, changes: s.changes, left_out: s.left_out };
                reports.event(Event::CheckpointTaken(Box::new(checkpoint)));
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, ?author, "the folder could not be checked; no checkpoint"),
        }
    }
}
