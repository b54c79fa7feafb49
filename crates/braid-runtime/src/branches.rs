//! Branches and merges: forking, switching, editing, merging with a
//! preview first, undoing a merge, and the history graph. Each is decided
//! by the core in the context's task; here they are only asked for.

use crate::mailbox::{Input, MergeAnswer, MergeOp};
use crate::{BranchEdit, Runtime, RuntimeError};
use braid_protocol::{BranchId, ContextId, ErrorCode, GraphView, MergeOptions, MergePreview, MessageId, WireError};

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
    /// the messages and their fate, tokens, dependencies and conflicts.
    pub async fn preview_merge(&self, id: &ContextId, options: MergeOptions) -> Result<MergePreview, RuntimeError> {
        match self.merge_op(id, MergeOp::Preview(options)).await? {
            MergeAnswer::Preview(p) => Ok(*p),
            _ => Err(unexpected()),
        }
    }

    /// Merges into the branch in use; answers the merge card's id.
    pub async fn merge(&self, id: &ContextId, options: MergeOptions) -> Result<MessageId, RuntimeError> {
        match self.merge_op(id, MergeOp::Apply(options)).await? {
            MergeAnswer::Card(card) => Ok(card),
            _ => Err(unexpected()),
        }
    }

    pub async fn undo_merge(&self, id: &ContextId, card: MessageId) -> Result<(), RuntimeError> {
        self.merge_op(id, MergeOp::Undo(card)).await.map(drop)
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
        let MergeAnswer::Summarise { provider, model, input, max_tokens } =
            self.merge_op(id, MergeOp::SummaryJob(source)).await?
        else {
            return Err(unexpected());
        };
        let instructions = braid_core::prompt::MERGE_SUMMARY_INSTRUCTIONS;
        let text =
            crate::summary_task::complete(provider, model, instructions, input, max_tokens).await.map_err(|e| {
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
