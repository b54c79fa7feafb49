//! A copy of a workspace for a line of work of its own (a sub-agent, a
//! branch, a team member), so parallel lines never write over each other
//! (made by `braid_checkpoint::isolate::workspace_copy`: a git worktree
//! that starts from the working changes in a repository, the working
//! files copied otherwise). What the copy holds when made is its
//! baseline; what changed in it since goes back, merged three-way with
//! the folder it came from (`merge_files`), and the copy is removed only
//! when nothing of it would be lost. A sub-agent's or a member's copy
//! lives as long as its run; a branch's outlives the app, its record
//! (where it came from, its baseline) kept beside it.

use crate::checkpoints::Checkpoints;
use crate::merge_files::{self, Choices};
use braid_checkpoint::isolate::{remove_copy, workspace_copy};
use braid_checkpoint::{changes, Manifest};
use braid_core::merge::files::FileSide;
use braid_protocol::{ChildWorkspace, FileChoice, FileConflictKind, FileTake, IsolationKind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(crate) struct Isolation {
    pub root: PathBuf,
    pub kind: IsolationKind,
    source: PathBuf,
    baseline: Manifest,
    checkpoints: Arc<Checkpoints>,
    /// Merged back, given up, or a branch's (kept on purpose): nothing is
    /// left to do when dropped.
    ended: bool,
}

/// What a kept copy's record holds.
#[derive(serde::Serialize, serde::Deserialize)]
struct Record {
    source: PathBuf,
    kind: IsolationKind,
    baseline: Manifest,
}

/// Where copies are made: beside Braid's data folder, never in it — a
/// sandboxed command sees a hidden folder that its workspace is in, so a
/// copy inside the data folder would show it Braid's keys.
pub(crate) fn copies_dir(db_path: &Path) -> PathBuf {
    let data = db_path.parent().unwrap_or(Path::new("."));
    let name = data.file_name().map_or_else(|| "braid".into(), |n| n.to_string_lossy().into_owned());
    data.with_file_name(format!("{name}-copies"))
}

impl Isolation {
    /// A copy of `source` named `name` under `dir`, and its baseline.
    pub async fn make(
        checkpoints: &Arc<Checkpoints>,
        source: &Path,
        dir: &Path,
        name: &str,
    ) -> Result<Isolation, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let to = dir.join(name);
        let (from, at, exclude) = (source.to_owned(), to.clone(), checkpoints.own_files(source));
        let kind = tokio::task::spawn_blocking(move || workspace_copy(&from, &at, &exclude).map_err(|e| e.to_string()))
            .await
            .map_err(|e| e.to_string())??;
        let mut made = Isolation {
            root: to,
            kind,
            source: source.to_owned(),
            baseline: Manifest::default(),
            checkpoints: checkpoints.clone(),
            ended: false,
        };
        match checkpoints.look(&made.root, Manifest::default()).await {
            Ok(baseline) => {
                made.baseline = baseline;
                Ok(made)
            }
            Err(e) => {
                made.remove();
                made.ended = true;
                Err(e)
            }
        }
    }

    /// A copy kept past this value (a branch's): its record saved beside
    /// it, and nothing done when dropped.
    pub async fn make_kept(
        checkpoints: &Arc<Checkpoints>,
        source: &Path,
        dir: &Path,
        name: &str,
    ) -> Result<Isolation, String> {
        let mut made = Isolation::make(checkpoints, source, dir, name).await?;
        made.ended = true;
        let record = Record { source: made.source.clone(), kind: made.kind, baseline: made.baseline.clone() };
        let saved = serde_json::to_vec(&record).map_err(|e| e.to_string()).and_then(|bytes| {
            std::fs::write(record_path(&made.root), bytes).map_err(|e| format!("{}: {e}", made.root.display()))
        });
        if let Err(e) = saved {
            made.remove();
            return Err(e);
        }
        Ok(made)
    }

    /// A kept copy at `root`, from its record.
    pub fn open(checkpoints: &Arc<Checkpoints>, root: &Path) -> Result<Isolation, String> {
        let bytes = std::fs::read(record_path(root)).map_err(|e| format!("{}: its record: {e}", root.display()))?;
        let Record { source, kind, baseline } = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
        let checkpoints = checkpoints.clone();
        Ok(Isolation { root: root.to_owned(), kind, source, baseline, checkpoints, ended: true })
    }

    /// The files of the copy holding changes that the folder it came from
    /// does not have: what removing the copy would lose. A change merged
    /// into the folder since (or made there too) is not one.
    pub async fn unique(&self) -> Result<Vec<String>, String> {
        let sides = self.sides().await?;
        let plan = self.plan(&self.checkpoints, &sides, Vec::new(), false).await?;
        Ok(plan.preview.into_iter().filter(|f| f.action != "kept").map(|f| f.path).collect())
    }

    /// What changed in the copy since it was made.
    async fn sides(&self) -> Result<Vec<FileSide>, String> {
        let now = self.checkpoints.look(&self.root, self.baseline.clone()).await?;
        Ok(changes(&self.baseline, &now)
            .into_iter()
            .map(|d| FileSide { path: d.path, base: d.before, theirs: d.after })
            .collect())
    }

    /// Merges what changed in the copy into the folder it came from —
    /// clean changes as they are, lines both changed with conflict
    /// markers (both sides kept), a binary or deleted file both changed
    /// left in the copy — and removes the copy when nothing is left in
    /// it. With `merge` false (the line of work failed) nothing goes
    /// back: a copy holding changes is kept.
    pub async fn end(mut self, merge: bool) -> ChildWorkspace {
        self.ended = true;
        self.conclude(merge).await
    }

    async fn conclude(&self, merge: bool) -> ChildWorkspace {
        let checkpoints = self.checkpoints.clone();
        let mut report = ChildWorkspace {
            folder: self.root.display().to_string(),
            kind: self.kind,
            merged: Vec::new(),
            conflicts: Vec::new(),
            kept: Vec::new(),
            problem: None,
        };
        match self.merge_back(&checkpoints, merge, &mut report).await {
            Ok(()) if report.kept.is_empty() => self.remove(),
            Ok(()) => {}
            Err(e) => report.problem = Some(format!("its copy could not be merged back ({e}), so it is kept")),
        }
        report
    }

    async fn merge_back(
        &self,
        checkpoints: &Arc<Checkpoints>,
        merge: bool,
        out: &mut ChildWorkspace,
    ) -> Result<(), String> {
        let sides = self.sides().await?;
        if !merge {
            out.kept = sides.into_iter().map(|s| s.path).collect();
            return Ok(());
        }
        // A first look finds what overlaps; each is then settled so that
        // no one's lines are lost. Held from the look to the write.
        let held = checkpoints.hold(&self.source).await;
        let looked = self.plan(checkpoints, &sides, Vec::new(), false).await?;
        let mut settle = Vec::new();
        for file in looked.preview.iter().filter_map(|f| Some((&f.path, f.conflict.as_ref()?))) {
            let (path, conflict) = file;
            let take = match (&conflict.kind, &conflict.marked) {
                (FileConflictKind::Lines, Some(marked)) => {
                    out.conflicts.push(path.clone());
                    FileTake::Edited { text: marked.clone() }
                }
                _ => {
                    out.kept.push(path.clone());
                    FileTake::Ours
                }
            };
            settle.push(FileChoice { path: path.clone(), take });
        }
        let plan = self.plan(checkpoints, &sides, settle, true).await?;
        let written: Vec<String> = plan.targets.iter().map(|t| t.path.clone()).collect();
        let changed = checkpoints.write(&held, &self.source, plan.targets).await?;
        drop(held);
        out.merged = written.into_iter().filter(|p| !changed.contains(p)).collect();
        out.conflicts.retain(|p| out.merged.contains(p));
        out.kept.extend(changed);
        Ok(())
    }

    async fn plan(
        &self,
        checkpoints: &Arc<Checkpoints>,
        sides: &[FileSide],
        files: Vec<FileChoice>,
        keep: bool,
    ) -> Result<merge_files::FilePlan, String> {
        let (checkpoints, source, sides) = (checkpoints.clone(), self.source.clone(), sides.to_vec());
        tokio::task::spawn_blocking(move || {
            let choices = Choices { files: &files, ..Choices::default() };
            merge_files::plan(&checkpoints, &source, &sides, &choices, keep)
        })
        .await
        .map_err(|e| e.to_string())?
    }

    /// Removes the copy (and its worktree's entry in the repository).
    pub fn remove(&self) {
        let _ = std::fs::remove_file(record_path(&self.root));
        if let Err(e) = remove_copy(&self.source, &self.root, self.kind) {
            tracing::warn!(folder = %self.root.display(), error = %e, "a copy of a workspace was not removed");
        }
    }
}

impl Drop for Isolation {
    /// A line of work stopped before its end (its supervisor cancelled
    /// it): nothing goes back, and the copy is kept if it holds changes.
    fn drop(&mut self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        if self.ended {
            return;
        }
        let orphan = Isolation {
            root: self.root.clone(),
            kind: self.kind,
            source: self.source.clone(),
            baseline: std::mem::take(&mut self.baseline),
            checkpoints: self.checkpoints.clone(),
            // Dropped unrun (the runtime is stopping), it must not come
            // here again.
            ended: true,
        };
        runtime.spawn(async move { orphan.conclude(false).await });
    }
}

/// Beside the copy, so a scan of the copy never sees it.
fn record_path(root: &Path) -> PathBuf {
    PathBuf::from(format!("{}.json", root.display()))
}
