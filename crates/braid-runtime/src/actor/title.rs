//! Naming a conversation after its first exchange. The core says when
//! there is enough to name it and reads the model's reply
//! (`braid_core::title`); here the request is made, off the task, and the
//! title is taken only if the user has not named the conversation since.

use super::{ContextActor, Input};
use crate::clock;
use braid_core::title;
use braid_protocol::{Notice, NoticeCode};

impl ContextActor {
    /// Called when the machine comes to rest.
    pub(super) fn maybe_title(&mut self) {
        if !self.shared.config.model_titles || self.titling || self.meta.title != title::DEFAULT_TITLE {
            return;
        }
        let Some(mut input) = title::input(&self.conversation) else { return };
        self.hide_secrets(&mut input);
        self.titling = true;
        let fallback = title::from_question(&title::first_question(&self.conversation).unwrap_or_default());
        let mailbox = self.mailbox.clone();
        let Ok(model) = self.shared.providers.resolve(self.model_choice()) else {
            let _ = mailbox.send(Input::AutoTitle(fallback));
            return;
        };
        tokio::spawn(async move {
            let max_tokens = title::MAX_TOKENS.min(model.max_output_tokens);
            let reply =
                crate::summary_task::complete(model.provider, model.model, title::INSTRUCTIONS, input, max_tokens)
                    .await;
            let name = reply.ok().and_then(|r| title::from_reply(&r)).unwrap_or(fallback);
            let _ = mailbox.send(Input::AutoTitle(name));
        });
    }

    /// Takes `name` unless the conversation was named meanwhile.
    pub(super) fn auto_title(&mut self, name: String) {
        if self.meta.title != title::DEFAULT_TITLE {
            return;
        }
        match self.update_meta(super::MetaChange { title: Some(name.clone()), ..Default::default() }) {
            Ok(_) => {
                self.emit_notice(Notice { code: NoticeCode::Titled, message: format!("Named “{name}”") }, clock::now())
            }
            Err(e) => tracing::warn!(context = %self.meta.id, error = %e, "the conversation could not be named"),
        }
    }
}
