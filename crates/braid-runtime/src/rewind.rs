//! Rewinding a conversation's files: the preview (each file with its
//! diff, the user's changes flagged), the restore and its undo. The core
//! plans each in the context's task; the files are written here, under
//! the folder's lock, journaled.

use crate::mailbox::{Input, RewindAnswer, RewindOp};
use crate::{Runtime, RuntimeError};
use braid_core::checkpoint::RewindPlan;
use braid_protocol::{
    ContextId, ErrorCode, MessageId, RestoreTarget, RewindAction, RewindFile, RewindOutcome, RewindPreview, WireError,
};
use std::path::{Path, PathBuf};

/// A diff longer than this is not shown (the file is still restored).
const DIFF_LIMIT: usize = 256 * 1024;

fn failed(e: impl std::fmt::Display) -> RuntimeError {
    RuntimeError::Rejected(WireError::new(ErrorCode::Internal, format!("the folder could not be checked: {e}")))
}

enum Goal {
    To(MessageId),
    Undo(MessageId),
}

impl Runtime {
    /// The conversation's checkpoints, oldest first.
    pub fn checkpoints_of(&self, id: &ContextId) -> Result<Vec<braid_protocol::Checkpoint>, RuntimeError> {
        Ok(self.shared.lock_store().checkpoints(id)?)
    }

    pub async fn preview_rewind(&self, id: &ContextId, to: MessageId) -> Result<RewindPreview, RuntimeError> {
        let (root, plan) = self.rewind_plan(id, Goal::To(to)).await?;
        let files = plan.targets.iter().map(|t| self.rewind_file(&root, t, &plan)).collect();
        Ok(RewindPreview { message_id: to, files, checkpoints: plan.undoes })
    }

    pub async fn rewind_files(
        &self,
        id: &ContextId,
        to: MessageId,
        overwrite: Vec<String>,
    ) -> Result<RewindOutcome, RuntimeError> {
        let (root, plan) = self.rewind_plan(id, Goal::To(to)).await?;
        self.restore(id, &root, plan, overwrite, to, None).await
    }

    pub async fn undo_rewind(&self, id: &ContextId, note: MessageId) -> Result<RewindOutcome, RuntimeError> {
        let (root, plan) = self.rewind_plan(id, Goal::Undo(note)).await?;
        self.restore(id, &root, plan, Vec::new(), note, Some(note)).await
    }

    /// The folder looked at first (what the user changed since is theirs),
    /// then the core's plan. Answers the folder and the plan.
    async fn rewind_plan(&self, id: &ContextId, goal: Goal) -> Result<(PathBuf, RewindPlan), RuntimeError> {
        let root = PathBuf::from(self.peek(id).await?.summary.working_dir);
        if self.shared.config.is_broad(&root) {
            let text = format!(
                "Braid keeps no checkpoints in a folder as broad as {}: choose a project folder for this conversation",
                root.display()
            );
            return Err(RuntimeError::Rejected(WireError::new(ErrorCode::InvalidInput, text)));
        }
        let user = self.shared.checkpoints.settle(&root).await.map_err(failed)?.changes;
        let checkpoints = self.shared.lock_store().checkpoints(id)?;
        let op = match goal {
            Goal::To(to) => RewindOp::Plan { to, user, checkpoints },
            Goal::Undo(note) => RewindOp::PlanUndo { note, user, checkpoints },
        };
        match self.ask(id, |answer| Input::Rewind { op, answer }).await? {
            RewindAnswer::Plan(plan) => Ok((root, plan)),
            RewindAnswer::Note(_) => Err(failed("the context answered something else")),
        }
    }

    async fn restore(
        &self,
        id: &ContextId,
        root: &Path,
        plan: RewindPlan,
        overwrite: Vec<String>,
        to: MessageId,
        undoes: Option<MessageId>,
    ) -> Result<RewindOutcome, RuntimeError> {
        let (targets, mut kept): (Vec<RestoreTarget>, Vec<RestoreTarget>) = plan
            .targets
            .into_iter()
            .partition(|t| !plan.changed_by_user.contains(&t.path) || overwrite.contains(&t.path));
        let (settled, changed_since) =
            self.shared.checkpoints.restore(root, targets, &overwrite).await.map_err(failed)?;
        let mut kept: Vec<String> = kept.drain(..).map(|t| t.path).chain(changed_since).collect();
        kept.sort();
        let files = settled.changes.len() as u32;
        let op = RewindOp::Done { to, changes: settled.changes, kept: kept.clone(), undoes };
        match self.ask(id, |answer| Input::Rewind { op, answer }).await? {
            RewindAnswer::Note(note) => Ok(RewindOutcome { note, files, kept }),
            RewindAnswer::Plan(_) => Err(failed("the context answered something else")),
        }
    }

    /// One file of the preview: what happens to it, and the diff from what
    /// it holds now to what it would hold.
    fn rewind_file(&self, root: &Path, t: &RestoreTarget, plan: &RewindPlan) -> RewindFile {
        let now = std::fs::read(root.join(&t.path)).ok();
        let then = t.to.as_ref().and_then(|v| self.shared.checkpoints.content(&v.hash).ok());
        let action = match (&now, &t.to) {
            (_, None) => RewindAction::Remove,
            (None, Some(_)) => RewindAction::Recreate,
            (Some(_), Some(_)) => RewindAction::Restore,
        };
        let text = |b: &Option<Vec<u8>>| match b {
            None => Some(String::new()),
            Some(b) if b.len() <= DIFF_LIMIT && !b.contains(&0) => String::from_utf8(b.clone()).ok(),
            Some(_) => None,
        };
        let (diff, binary) = match (text(&now), text(&then)) {
            (Some(a), Some(b)) => {
                let diff = similar::TextDiff::from_lines(&a, &b)
                    .unified_diff()
                    .context_radius(3)
                    .header(&format!("a/{}", t.path), &format!("b/{}", t.path))
                    .to_string();
                (diff, false)
            }
            _ => (String::new(), true),
        };
        RewindFile {
            path: t.path.clone(),
            action,
            diff,
            binary,
            changed_by_user: plan.changed_by_user.contains(&t.path),
        }
    }
}
