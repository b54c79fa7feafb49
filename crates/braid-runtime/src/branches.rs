//! Branches and merges: forking, switching, editing, merging with a
//! preview first, undoing a merge, and the history graph. Each is decided
//! by the core in the context's task; here they are only asked for.

use crate::checkpoints::Prepared;
use crate::mailbox::{Input, MergeAnswer, MergeOp};
use crate::merge_files::{self, FilePlan};
use crate::{BranchEdit, Runtime, RuntimeError};
use braid_checkpoint::Commit;
use braid_protocol::{
    BranchId, ContextId, ErrorCode, FileDelta, GraphView, MergeOptions, MergePreview, MessageId, RestoreTarget,
    WireError,
};
use std::path::{Path, PathBuf};

fn unexpected() -> RuntimeError {
    RuntimeError::Rejected(WireError::new(ErrorCode::Internal, "the context answered something else"))
}

impl Runtime {
    pub async fn create_branch(
        &self,
        id: &ContextId,
        from: MessageId,
        name: String,
        system_prompt: Option<String>,
    ) -> Result<BranchId, RuntimeError> {
        self.ask(id, |answer| Input::CreateBranch { from, before: false, name, system_prompt, answer }).await
    }

    /// A branch holding everything before `message`: an edited question
    /// is sent there, or the answer is written again there.
    pub async fn fork_before(
        &self,
        id: &ContextId,
        message: MessageId,
        name: String,
    ) -> Result<BranchId, RuntimeError> {
        self.ask(id, |answer| Input::CreateBranch { from: message, before: true, name, system_prompt: None, answer })
            .await
    }

    pub async fn switch_branch(&self, id: &ContextId, to: BranchId) -> Result<(), RuntimeError> {
        self.ask(id, |answer| Input::SwitchBranch { to, answer }).await.map(drop)
    }

    /// Renames a branch (1 to 80 characters), sets its own system prompt
    /// (`None` or empty: the conversation's), or deletes it (not main, not
    /// the one in use; messages another branch holds stay).
    pub async fn edit_branch(&self, id: &ContextId, branch: BranchId, edit: BranchEdit) -> Result<(), RuntimeError> {
        self.ask(id, |answer| Input::EditBranch { branch, edit, answer }).await.map(drop)
    }

    /// What merging `options.source` into the branch in use would do:
    /// the messages and their fate, tokens, dependencies and conflicts,
    /// and the files it writes.
    pub async fn preview_merge(&self, id: &ContextId, options: MergeOptions) -> Result<MergePreview, RuntimeError> {
        let MergeAnswer::Preview(mut preview) = self.merge_op(id, MergeOp::Preview(options.clone())).await? else {
            return Err(unexpected());
        };
        if let Some(plan) = self.merge_files(id, &options, false).await? {
            preview.files = plan.1.preview;
            if preview.blocked.is_none() && !plan.1.unsettled.is_empty() {
                let files = plan.1.unsettled.join("; ");
                preview.blocked = Some(format!("settle each file both branches changed in the same lines: {files}"));
            }
        }
        Ok(*preview)
    }

    /// Merges into the branch in use, files included; answers the merge
    /// card's id. The files are written all or nothing with the card.
    pub async fn merge(&self, id: &ContextId, options: MergeOptions) -> Result<MessageId, RuntimeError> {
        let source = options.source.clone();
        let card = self.merge_files_and_messages(id, options).await?;
        self.drop_merged_copy(id, &source).await;
        Ok(card)
    }

    async fn merge_files_and_messages(&self, id: &ContextId, options: MergeOptions) -> Result<MessageId, RuntimeError> {
        let files = self.merge_files(id, &options, true).await?;
        if let Some((_, plan)) = files.as_ref().filter(|(_, p)| !p.unsettled.is_empty()) {
            let text =
                format!("settle each file both branches changed in the same lines: {}", plan.unsettled.join("; "));
            return Err(RuntimeError::Rejected(WireError::new(ErrorCode::InvalidInput, text)));
        }
        let Some((root, plan)) = files.filter(|(_, p)| !p.targets.is_empty()) else {
            return self.apply_merge(id, options, Vec::new()).await;
        };
        let prepared = self.prepare_files(id, &root, plan.targets).await?;
        match self.apply_merge(id, options, plan.changes).await {
            Ok(card) => self.finish_files(prepared).await.map(|()| card),
            Err(e) => {
                self.shared.checkpoints.abandon(prepared);
                Err(e)
            }
        }
    }

    /// Takes a merge back: its messages, and the files it (and the turns
    /// it replayed) wrote, all or nothing. Refused when one of those files
    /// changed since.
    pub async fn undo_merge(&self, id: &ContextId, card: MessageId) -> Result<(), RuntimeError> {
        let Some((root, user)) = self.merge_folder(id).await? else {
            return self.merge_op(id, MergeOp::Undo(card, Vec::new())).await.map(drop);
        };
        let op = MergeOp::UndoFiles { card, user, checkpoints: self.recorded(id)? };
        let MergeAnswer::Plan(plan) = self.merge_op(id, op).await? else { return Err(unexpected()) };
        if plan.targets.is_empty() {
            return self.merge_op(id, MergeOp::Undo(card, Vec::new())).await.map(drop);
        }
        let changes = merge_files::undo(&root, &plan.targets)
            .map_err(|e| RuntimeError::Rejected(WireError::new(ErrorCode::InvalidInput, e)))?;
        let prepared = self.prepare_files(id, &root, plan.targets).await?;
        match self.merge_op(id, MergeOp::Undo(card, changes)).await {
            Ok(_) => self.finish_files(prepared).await,
            Err(e) => {
                self.shared.checkpoints.abandon(prepared);
                Err(e)
            }
        }
    }

    async fn apply_merge(
        &self,
        id: &ContextId,
        options: MergeOptions,
        files: Vec<FileDelta>,
    ) -> Result<MessageId, RuntimeError> {
        match self.merge_op(id, MergeOp::Apply(options, files)).await? {
            MergeAnswer::Card(card) => Ok(card),
            _ => Err(unexpected()),
        }
    }

    /// The conversation's folder, looked at; `None` in a folder as broad
    /// as the home folder, where Braid keeps no checkpoints (a merge there
    /// is of messages only).
    async fn merge_folder(&self, id: &ContextId) -> Result<Option<(PathBuf, Vec<FileDelta>)>, RuntimeError> {
        let root = PathBuf::from(self.peek(id).await?.summary.working_dir);
        if self.shared.config.is_broad(&root) {
            return Ok(None);
        }
        self.settled_folder(id).await.map(Some)
    }

    /// The merge's files worked out against the folder as it is now.
    async fn merge_files(
        &self,
        id: &ContextId,
        options: &MergeOptions,
        keep: bool,
    ) -> Result<Option<(PathBuf, FilePlan)>, RuntimeError> {
        let Some((root, user)) = self.merge_folder(id).await? else { return Ok(None) };
        let op = MergeOp::Files { options: options.clone(), user, checkpoints: self.recorded(id)? };
        let MergeAnswer::Files(sides) = self.merge_op(id, op).await? else { return Err(unexpected()) };
        if sides.is_empty() {
            return Ok(Some((root, FilePlan::default())));
        }
        let (checkpoints, at, options) = (self.shared.checkpoints.clone(), root.clone(), options.clone());
        let plan =
            tokio::task::spawn_blocking(move || merge_files::plan(&checkpoints, &at, &sides, &(&options).into(), keep))
                .await
                .map_err(crate::rewind::failed)?
                .map_err(|e| RuntimeError::Rejected(WireError::new(ErrorCode::InvalidInput, e)))?;
        Ok(Some((root, plan)))
    }

    /// Journals the files before the record is stored; after a crash they
    /// are written only if it was.
    async fn prepare_files(
        &self,
        id: &ContextId,
        root: &Path,
        targets: Vec<RestoreTarget>,
    ) -> Result<Prepared, RuntimeError> {
        let after = self.checkpoints_of(id)?.last().map_or(0, |cp| cp.id);
        let commit = Commit { context: id.0.clone(), after };
        self.shared
            .checkpoints
            .prepare(root, targets, commit)
            .await
            .map_err(|e| RuntimeError::Rejected(WireError::new(ErrorCode::InvalidInput, e)))
    }

    async fn finish_files(&self, prepared: Prepared) -> Result<(), RuntimeError> {
        self.shared.checkpoints.finish(prepared).await.map_err(|e| {
            let text = format!(
                "the merge is recorded, but its files could not all be written ({e}); they are completed on the next start"
            );
            RuntimeError::Rejected(WireError::new(ErrorCode::Internal, text))
        })
    }

    pub async fn branch_graph(&self, id: &ContextId) -> Result<GraphView, RuntimeError> {
        let checkpoints = self.recorded(id)?;
        match self.merge_op(id, MergeOp::Graph(checkpoints)).await? {
            MergeAnswer::Graph(g) => Ok(*g),
            _ => Err(unexpected()),
        }
    }

    /// The conversation's model summarises what `source` found since it
    /// parted from the branch in use, for the user to edit in the preview.
    /// Nothing is stored; dropping the future stops the request.
    pub async fn draft_merge_summary(&self, id: &ContextId, source: BranchId) -> Result<String, RuntimeError> {
        let MergeAnswer::Summarise { provider, model, input, max_tokens, filter } =
            self.merge_op(id, MergeOp::SummaryJob(source)).await?
        else {
            return Err(unexpected());
        };
        let instructions = braid_core::prompt::MERGE_SUMMARY_INSTRUCTIONS;
        let text = crate::summary_task::complete(provider, model, instructions, input, max_tokens, &filter)
            .await
            .map_err(|e| {
                RuntimeError::Rejected(WireError::new(
                    ErrorCode::Provider,
                    format!("the model could not summarise: {e}"),
                ))
            })?;
        // A small model may stop at once: say so rather than fill nothing in.
        if text.trim().is_empty() {
            let why = "the model wrote no summary; try again, or write it yourself";
            return Err(RuntimeError::Rejected(WireError::new(ErrorCode::Provider, why)));
        }
        Ok(text)
    }

    async fn merge_op(&self, id: &ContextId, op: MergeOp) -> Result<MergeAnswer, RuntimeError> {
        self.ask(id, |answer| Input::Merge { op, answer }).await
    }
}
