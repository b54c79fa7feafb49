//! The context's descriptive fields and branch edits as the task hands
//! them to the core (`braid_core::context`), and the snapshot a client
//! sees of it all.

use super::ContextActor;
use crate::mailbox::{BranchEdit, MetaChange};
use crate::{clock, snapshot};
use braid_core::machine::Reply;
use braid_protocol::{BranchId, ContextSnapshot, ContextSummary, ErrorCode, WireError};

impl ContextActor {
    pub(super) fn snapshot(&self, tail: usize) -> ContextSnapshot {
        let effective = self.shared.providers.effective(self.ctx.model_choice());
        let mut snapshot = snapshot::build(
            &self.ctx.meta,
            &self.ctx.state,
            &self.ctx.conversation,
            tail,
            effective,
            self.ctx.state.book.last_sent.clone(),
            self.files_in_play(),
        );
        snapshot.overwrites = self.overwrites();
        snapshot.previews = self.previews();
        snapshot.prompted = self.prompted();
        snapshot.secret_uses = self.secret_uses();
        snapshot.tool_changes = self.tool_changes();
        snapshot.draft = self.draft();
        snapshot
    }

    /// The core checks and makes the change; it is stored with the step,
    /// and memory goes back if that fails.
    pub(super) fn update_meta(&mut self, change: MetaChange) -> Result<ContextSummary, WireError> {
        let step = self.ctx.edit_meta(change, clock::now());
        if let Some(Err(e)) = self.carry_out(step) {
            return Err(e);
        }
        Ok(snapshot::summary(&self.ctx.meta, &self.ctx.state, &self.ctx.conversation))
    }

    /// Whether a model's provider exists is a fact of this machine,
    /// checked here; the core decides the rest.
    pub(super) fn edit_branch(&mut self, branch: BranchId, edit: BranchEdit) -> Result<Reply, WireError> {
        if let BranchEdit::Model(Some(choice)) = &edit {
            if !self.shared.providers.has(&choice.provider_id) {
                let text = format!("no provider with id {:?}", choice.provider_id);
                return Err(WireError::new(ErrorCode::InvalidInput, text));
            }
        }
        let step = self.ctx.edit_branch(branch, edit, clock::now());
        self.carry_out(step).unwrap_or(Ok(Reply::Done))
    }
}
