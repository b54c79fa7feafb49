//! A conversation's title and its own model: edits to what is kept about
//! it beside its messages (the provider checked here, the rest by the
//! core in the conversation's task).

use crate::mailbox::{self, Input};
use crate::{Runtime, RuntimeError};
use braid_protocol::{ContextId, ContextSummary, ModelChoice};

impl Runtime {
    pub async fn rename_context(&self, id: &ContextId, title: &str) -> Result<ContextSummary, RuntimeError> {
        // The core checks it (not empty, not too long).
        let title = Some(title.to_owned());
        let change = mailbox::MetaChange { title, ..Default::default() };
        self.ask(id, |answer| Input::UpdateMeta { change, answer }).await
    }

    /// The conversation's own model from its next request on; `None`
    /// follows the default again. The provider must exist.
    pub async fn set_context_model(
        &self,
        id: &ContextId,
        model: Option<ModelChoice>,
    ) -> Result<ContextSummary, RuntimeError> {
        if let Some(choice) = &model {
            if !self.shared.providers.has(&choice.provider_id) {
                return Err(RuntimeError::InvalidInput(format!("no provider with id {:?}", choice.provider_id)));
            }
        }
        let change = mailbox::MetaChange { model: Some(model), ..Default::default() };
        self.ask(id, |answer| Input::UpdateMeta { change, answer }).await
    }
}
