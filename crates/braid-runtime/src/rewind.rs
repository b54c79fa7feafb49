//! Rewinding a conversation's files: the preview (each file with its
//! diff, the user's changes flagged), the restore and its undo. The core
//! plans each in the context's task; the files are written here, under
//! the folder's lock, journaled.

use crate::checkpoints::Checkpoints;
use crate::mailbox::{Input, Recorded, RewindAnswer, RewindOp};
use crate::{Runtime, RuntimeError};
use braid_core::checkpoint::RewindPlan;
use braid_core::context::Restored;
use braid_protocol::{
    BranchId, ContextId, ErrorCode, FileDelta, MessageId, RestoreTarget, RewindAction, RewindFile, RewindOutcome,
    RewindPreview, WireError,
};
use std::path::{Path, PathBuf};

/// A diff longer than this is not shown (the file is still restored).
pub(crate) const DIFF_LIMIT: usize = 256 * 1024;

/// The unified diff of one file from `a` to `b`, as previews show it.
pub(crate) fn unified(path: &str, a: &str, b: &str) -> String {
    similar::TextDiff::from_lines(a, b)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

pub(crate) fn failed(e: impl std::fmt::Display) -> RuntimeError {
    RuntimeError::Rejected(WireError::new(ErrorCode::Internal, format!("the folder could not be checked: {e}")))
}

enum Goal {
    To(MessageId),
    Undo(MessageId),
    /// The files as they were at the branch's last message.
    Branch(BranchId),
}

impl Runtime {
    /// The conversation's checkpoints, oldest first.
    pub fn checkpoints_of(&self, id: &ContextId) -> Result<Vec<braid_protocol::Checkpoint>, RuntimeError> {
        Ok(self.shared.lock_store().checkpoints(id)?)
    }

    /// The conversation's checkpoints and its sub-agents', each child's
    /// with its own children's, by the call that started the child.
    pub(crate) fn recorded(&self, id: &ContextId) -> Result<Recorded, RuntimeError> {
        let store = self.shared.lock_store();
        let mut children = Vec::new();
        // A child in its own copy changed the copy; what came back of it
        // is the parent's own checkpoint.
        for child in store.children_of(id)?.into_iter().filter(|c| c.child.workspace.is_none()) {
            let mut all = store.checkpoints(&child.context_id)?;
            let mut below: Vec<ContextId> = vec![child.context_id.clone()];
            while let Some(parent) = below.pop() {
                for grandchild in store.children_of(&parent)? {
                    all.extend(store.checkpoints(&grandchild.context_id)?);
                    below.push(grandchild.context_id);
                }
            }
            children.push((child.child.call_id, all));
        }
        Ok(Recorded { own: store.checkpoints(id)?, children })
    }

    pub async fn preview_rewind(&self, id: &ContextId, to: MessageId) -> Result<RewindPreview, RuntimeError> {
        self.preview(id, Goal::To(to)).await
    }

    /// What switching to `branch` with its files would write.
    pub async fn preview_switch_files(&self, id: &ContextId, branch: BranchId) -> Result<RewindPreview, RuntimeError> {
        self.preview(id, Goal::Branch(branch)).await
    }

    /// Switches to `branch` and puts the files back as they were at its
    /// last message: the restore's note goes on the branch, undone like
    /// any restore. The user's changes since are kept unless named in
    /// `overwrite`.
    pub async fn switch_branch_with_files(
        &self,
        id: &ContextId,
        branch: BranchId,
        overwrite: Vec<String>,
    ) -> Result<RewindOutcome, RuntimeError> {
        let (root, plan) = self.rewind_plan(id, Goal::Branch(branch.clone())).await?;
        self.switch_branch(id, branch).await?;
        let tip = plan.at.unwrap_or(MessageId(0));
        self.restore(id, &root, plan, overwrite, Restored::to(tip)).await
    }

    async fn preview(&self, id: &ContextId, goal: Goal) -> Result<RewindPreview, RuntimeError> {
        let to = match &goal {
            Goal::To(to) | Goal::Undo(to) => Some(*to),
            Goal::Branch(_) => None,
        };
        let (root, plan) = self.rewind_plan(id, goal).await?;
        let to = to.or(plan.at).unwrap_or(MessageId(0));
        let checkpoints = self.shared.checkpoints.clone();
        let checkpoint_count = plan.undoes;
        let files = tokio::task::spawn_blocking(move || {
            plan.targets.iter().map(|t| rewind_file(&checkpoints, &root, t, &plan)).collect()
        })
        .await
        .map_err(failed)?;
        Ok(RewindPreview { message_id: to, files, checkpoints: checkpoint_count })
    }

    pub async fn rewind_files(
        &self,
        id: &ContextId,
        to: MessageId,
        overwrite: Vec<String>,
    ) -> Result<RewindOutcome, RuntimeError> {
        let (root, plan) = self.rewind_plan(id, Goal::To(to)).await?;
        self.restore(id, &root, plan, overwrite, Restored::to(to)).await
    }

    pub async fn undo_rewind(&self, id: &ContextId, note: MessageId) -> Result<RewindOutcome, RuntimeError> {
        let (root, plan) = self.rewind_plan(id, Goal::Undo(note)).await?;
        self.restore(id, &root, plan, Vec::new(), Restored { undoes: Some(note), ..Restored::to(note) }).await
    }

    /// The folder looked at first (what the user changed since is theirs),
    /// then the core's plan. Answers the folder and the plan.
    async fn rewind_plan(&self, id: &ContextId, goal: Goal) -> Result<(PathBuf, RewindPlan), RuntimeError> {
        let (root, user) = self.settled_folder(id).await?;
        let op = match goal {
            Goal::To(to) => RewindOp::Plan { to, user, checkpoints: self.recorded(id)? },
            Goal::Undo(note) => RewindOp::PlanUndo { note, user, checkpoints: self.checkpoints_of(id)? },
            Goal::Branch(branch) => RewindOp::PlanBranch { branch, user, checkpoints: self.recorded(id)? },
        };
        match self.ask(id, |answer| Input::Rewind { op, answer }).await? {
            RewindAnswer::Plan(plan) => Ok((root, plan)),
            _ => Err(failed("the context answered something else")),
        }
    }

    /// The conversation's folder, looked at: what the user changed in it
    /// since the last look. Refused in a folder as broad as the home folder.
    pub(crate) async fn settled_folder(&self, id: &ContextId) -> Result<(PathBuf, Vec<FileDelta>), RuntimeError> {
        let root = PathBuf::from(self.peek(id).await?.summary.working_dir);
        if self.shared.config.is_broad(&root) {
            let text = format!(
                "Braid keeps no checkpoints in a folder as broad as {}: choose a project folder for this conversation",
                root.display()
            );
            return Err(RuntimeError::Rejected(WireError::new(ErrorCode::InvalidInput, text)));
        }
        let user = self.shared.checkpoints.settle(&root).await.map_err(failed)?.changes;
        Ok((root, user))
    }

    /// Writes the plan's targets (journaled), leaving the user's changes
    /// unless named in `overwrite`, and records the restore's note.
    pub(crate) async fn restore(
        &self,
        id: &ContextId,
        root: &Path,
        plan: RewindPlan,
        overwrite: Vec<String>,
        mut restored: Restored,
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
        (restored.changes, restored.kept) = (settled.changes, kept.clone());
        match self.ask(id, |answer| Input::Rewind { op: RewindOp::Done(restored), answer }).await? {
            RewindAnswer::Note(note) => Ok(RewindOutcome { note, files, kept }),
            _ => Err(failed("the context answered something else")),
        }
    }
}

/// One file of the preview: what happens to it, and the diff from what
/// it holds now to what it would hold.
fn rewind_file(checkpoints: &Checkpoints, root: &Path, t: &RestoreTarget, plan: &RewindPlan) -> RewindFile {
    let now = std::fs::read(root.join(&t.path)).ok();
    let then = t.to.as_ref().and_then(|v| checkpoints.content(&v.hash).ok());
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
        (Some(a), Some(b)) => (unified(&t.path, &a, &b), false),
        _ => (String::new(), true),
    };
    RewindFile { path: t.path.clone(), action, diff, binary, changed_by_user: plan.changed_by_user.contains(&t.path) }
}
