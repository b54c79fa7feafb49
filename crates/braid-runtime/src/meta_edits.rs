//! A conversation's title and its own model: edits to what is kept about
//! it beside its messages (checked here, applied in its task).

use crate::mailbox::{self, Input};
use crate::{Runtime, RuntimeError};
use braid_protocol::{ContextId, ContextSummary, ModelChoice};

impl Runtime {
    pub async fn rename_context(&self, id: &ContextId, title: &str) -> Result<ContextSummary, RuntimeError> {
        let title = title.trim();
        if title.is_empty() {
            return Err(RuntimeError::InvalidInput("a conversation needs a title".to_owned()));
        }
        if title.chars().count() > 200 {
            return Err(RuntimeError::InvalidInput("a title is at most 200 characters".to_owned()));
        }
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
            if choice.model.trim().is_empty() {
                return Err(RuntimeError::InvalidInput("choose a model".to_owned()));
            }
        }
        let change = mailbox::MetaChange { model: Some(model), ..Default::default() };
        self.ask(id, |answer| Input::UpdateMeta { change, answer }).await
    }
}
