//! A branch's own copy of the workspace (`isolation.rs`): made when the
//! user asks (never for main), where the branch's tools work while it is
//! in use — so two approaches live side by side on disk and can both be
//! run — and removed when the branch is deleted or merged. A copy that
//! holds changes the conversation's folder does not have is never removed
//! unasked: the removal is refused, naming the files, until the user says
//! to discard them.

use crate::isolation::{copies_dir, Isolation};
use crate::mailbox::BranchEdit;
use crate::{Runtime, RuntimeError};
use braid_protocol::{BranchId, ContextId, ErrorCode, WireError};
use std::path::{Path, PathBuf};

fn refused(text: impl Into<String>) -> RuntimeError {
    RuntimeError::Rejected(WireError::new(ErrorCode::InvalidInput, text))
}

impl Runtime {
    /// Gives `branch` its own copy of the conversation's folder as it is
    /// now: its tools work there from its next call while it is in use.
    pub async fn isolate_branch(&self, id: &ContextId, branch: BranchId) -> Result<String, RuntimeError> {
        let (name, folder) = self.branch_folder(id, &branch).await?;
        if let Some(folder) = folder {
            return Err(refused(format!("{name} works in its own copy already: {folder}")));
        }
        if branch == BranchId::main() {
            return Err(refused("main works in the conversation's folder; give a copy to a fork"));
        }
        let source = PathBuf::from(self.shared.lock_store().folder_of(id)?);
        if self.shared.config.is_broad(&source) {
            return Err(refused("a folder as broad as the home folder is not copied; choose a project folder first"));
        }
        let dir = copies_dir(&self.shared.config.db_path);
        let label: String = branch.0.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        let copy = Isolation::make_kept(&self.shared.checkpoints, &source, &dir, &format!("{}-{label}", id.0))
            .await
            .map_err(|e| refused(format!("the copy could not be made: {e}")))?;
        let folder = copy.root.display().to_string();
        if let Err(e) = self.edit_branch(id, branch, BranchEdit::Folder(Some(folder.clone()))).await {
            copy.remove();
            return Err(e);
        }
        Ok(folder)
    }

    /// Removes `branch`'s own copy; its tools work in the conversation's
    /// folder again. Refused, naming them, while the copy holds changes
    /// the folder does not have, unless `discard`.
    pub async fn remove_branch_copy(
        &self,
        id: &ContextId,
        branch: BranchId,
        discard: bool,
    ) -> Result<(), RuntimeError> {
        let (name, folder) = self.branch_folder(id, &branch).await?;
        let Some(folder) = folder else { return Err(refused(format!("{name} has no copy of its own"))) };
        let copy = self.open_copy(&name, &folder, discard).await?;
        self.edit_branch(id, branch, BranchEdit::Folder(None)).await?;
        if let Some(copy) = copy {
            copy.remove();
        }
        Ok(())
    }

    /// Deletes `branch` and its copy; refused while the copy holds changes
    /// that exist nowhere else (remove the copy first, discarding them).
    pub(crate) async fn delete_branch_and_copy(&self, id: &ContextId, branch: BranchId) -> Result<(), RuntimeError> {
        let (name, folder) = self.branch_folder(id, &branch).await?;
        let copy = match &folder {
            Some(folder) => self.open_copy(&name, folder, false).await?,
            None => None,
        };
        self.edit_branch(id, branch, BranchEdit::Delete).await?;
        if let Some(copy) = copy {
            copy.remove();
        }
        Ok(())
    }

    /// After a merge from `source`: its copy is removed when everything in
    /// it is in the folder now; kept otherwise (the merge dialog asks).
    pub(crate) async fn drop_merged_copy(&self, id: &ContextId, source: &BranchId) {
        let Ok((name, Some(folder))) = self.branch_folder(id, source).await else { return };
        if let Ok(copy) = self.open_copy(&name, &folder, false).await {
            if self.edit_branch(id, source.clone(), BranchEdit::Folder(None)).await.is_ok() {
                copy.into_iter().for_each(|c| c.remove());
            }
        }
    }

    /// Before the conversation is deleted: its branches' copies go, but
    /// one holding changes the folder lacks stays on disk where it is.
    pub(crate) async fn drop_branch_copies(&self, id: &ContextId) {
        let Ok(snapshot) = self.peek(id).await else { return };
        for b in snapshot.branches {
            let Some(folder) = b.folder.clone() else { continue };
            match self.open_copy(&b.label(), &folder, false).await {
                Ok(copy) => copy.into_iter().for_each(|c| c.remove()),
                Err(e) => tracing::warn!(folder, error = %e, "a deleted conversation's branch copy is kept"),
            }
        }
    }

    /// The kept copy at `folder`, refused when it holds changes that exist
    /// nowhere else (unless `discard`); `None` when it is gone already.
    async fn open_copy(&self, name: &str, folder: &str, discard: bool) -> Result<Option<Isolation>, RuntimeError> {
        if !Path::new(folder).exists() {
            return Ok(None);
        }
        let copy = match Isolation::open(&self.shared.checkpoints, Path::new(folder)) {
            Ok(copy) => copy,
            // Without its record it cannot be compared: only removed when
            // the user says so.
            Err(_) if discard => {
                std::fs::remove_dir_all(folder).map_err(|e| refused(format!("{folder}: {e}")))?;
                return Ok(None);
            }
            Err(e) => {
                return Err(refused(format!(
                    "{name}'s copy at {folder} cannot be checked ({e}); remove it discarding what it holds"
                )))
            }
        };
        if !discard {
            let unique = copy.unique().await.map_err(refused)?;
            if !unique.is_empty() {
                return Err(refused(format!(
                    "{name}'s copy holds changes the conversation's folder does not have: {}. Merge {name} first, \
                     or remove its copy discarding them",
                    unique.join(", ")
                )));
            }
        }
        Ok(Some(copy))
    }

    /// The branch's name and its own copy, if it has one.
    async fn branch_folder(&self, id: &ContextId, branch: &BranchId) -> Result<(String, Option<String>), RuntimeError> {
        let snapshot = self.peek(id).await?;
        let found = snapshot.branches.into_iter().find(|b| &b.id == branch);
        let found = found.ok_or_else(|| refused(format!("branch {branch} does not exist")))?;
        Ok((found.label(), found.folder))
    }
}
