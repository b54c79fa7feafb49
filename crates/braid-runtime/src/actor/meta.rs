//! The context's records outside the state machine's state: its title,
//! model choice and folder (written to the store first), forks, which the
//! core drafts and the machine creates, and the snapshot a client sees of
//! it all.

use super::ContextActor;
use crate::mailbox::MetaChange;
use crate::{clock, snapshot};
use braid_core::machine::{Event, Reply};
use braid_protocol::{BranchId, ContextSnapshot, ContextSummary, ErrorCode, MessageId, WireError};

impl ContextActor {
    pub(super) fn snapshot(&self, tail: usize) -> ContextSnapshot {
        let effective = self.shared.providers.effective(self.model_choice());
        let mut snapshot = snapshot::build(
            &self.meta,
            &self.state,
            &self.conversation,
            tail,
            effective,
            self.state.book.last_sent.clone(),
            self.files_in_play(),
        );
        snapshot.overwrites = self.overwrites();
        snapshot.previews = self.previews();
        snapshot.prompted = self.prompted();
        snapshot
    }

    /// Written to the store first; the copy here changes only if that worked.
    pub(super) fn update_meta(&mut self, change: MetaChange) -> Result<ContextSummary, WireError> {
        let now = clock::now();
        let storage = |e: braid_store::StoreError| WireError::new(ErrorCode::Storage, e.to_string());
        // The machine says whether the folder may move now (only while
        // idle) and keeps what it means for reads.
        if let Some((_, broad)) = &change.working_dir {
            if let Some(Err(e)) = self.apply(Event::SetWorkspace { confirm_reads: *broad }) {
                return Err(e);
            }
        }
        let mut store = self.shared.lock_store();
        if let Some((dir, _)) = &change.working_dir {
            let dir = dir.display().to_string();
            store.set_working_dir(&self.meta.id, &dir, now).map_err(storage)?;
            self.meta.working_dir = dir;
        }
        if let Some(title) = &change.title {
            store.rename_context(&self.meta.id, title, now).map_err(storage)?;
            self.meta.title = title.clone();
        }
        if let Some(model) = &change.model {
            store.set_context_model(&self.meta.id, model.as_ref(), now).map_err(storage)?;
            self.meta.model = model.clone();
        }
        // A pin is not a change to the conversation: its time stays.
        if let Some(pinned) = change.pinned {
            store.set_pinned(&self.meta.id, pinned).map_err(storage)?;
            self.meta.pinned = pinned;
        }
        drop(store);
        if change.title.is_some() || change.model.is_some() || change.working_dir.is_some() {
            self.meta.updated_at = now;
        }
        Ok(snapshot::summary(&self.meta, &self.state, &self.conversation))
    }

    /// The branch must exist; the machine decides the rest.
    /// The model answers come from now: the branch's own, else the
    /// conversation's.
    pub(super) fn model_choice(&self) -> Option<&braid_protocol::ModelChoice> {
        let branch = self.conversation.branch(self.conversation.active_branch());
        branch.and_then(|b| b.model.as_ref()).or(self.meta.model.as_ref())
    }

    pub(super) fn edit_branch(&mut self, branch: BranchId, edit: super::BranchEdit) -> Result<Reply, WireError> {
        if self.conversation.branch(&branch).is_none() {
            let text = format!("branch {branch} does not exist in context {}", self.meta.id);
            return Err(WireError::new(ErrorCode::NotFound, text));
        }
        let event = match edit {
            super::BranchEdit::Rename(name) => Event::RenameBranch { branch, name },
            super::BranchEdit::Prompt(system_prompt) => Event::SetBranchPrompt { branch, system_prompt },
            super::BranchEdit::Model(model) => {
                if let Some(choice) = &model {
                    if !self.shared.providers.has(&choice.provider_id) {
                        let text = format!("no provider with id {:?}", choice.provider_id);
                        return Err(WireError::new(ErrorCode::InvalidInput, text));
                    }
                    if choice.model.trim().is_empty() {
                        return Err(WireError::new(ErrorCode::InvalidInput, "choose a model"));
                    }
                }
                Event::SetBranchModel { branch, model }
            }
            super::BranchEdit::Delete => {
                let deletion = self
                    .conversation
                    .deletion(&branch)
                    .map_err(|e| WireError::new(ErrorCode::InvalidInput, e.to_string()))?;
                Event::DeleteBranch { deletion: Box::new(deletion) }
            }
        };
        self.apply(event).unwrap_or(Ok(Reply::Done))
    }

    /// The fork is drafted from the conversation (by the core's rules) and
    /// created by the machine, which hands out its id and persists it.
    pub(super) fn create_branch(
        &mut self,
        from: MessageId,
        before: bool,
        name: &str,
        system_prompt: Option<String>,
    ) -> Result<BranchId, WireError> {
        let source = self.conversation.branch_of(from).cloned().ok_or_else(|| {
            WireError::new(ErrorCode::NotFound, format!("message {from} is not in this conversation"))
        })?;
        let draft = if before {
            self.conversation.fork_before(&source, from, name, clock::now())
        } else {
            self.conversation.fork(&source, from, name, system_prompt, clock::now())
        };
        let draft = draft.map_err(|e| WireError::new(ErrorCode::InvalidInput, e.to_string()))?;
        match self.apply(Event::CreateBranch { draft: Box::new(draft), switch: false }) {
            Some(Ok(Reply::Branch(id))) => Ok(id),
            Some(Err(e)) => Err(e),
            _ => Err(WireError::new(ErrorCode::Internal, "the branch was not created")),
        }
    }
}
