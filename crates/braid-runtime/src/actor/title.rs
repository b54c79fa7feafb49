//! Naming a conversation after its first exchange. The core says when it
//! should be named, reads the model's reply (`braid_core::title`) and
//! takes the title only if the user has not named it since; here the
//! request is made, off the task.

use super::{ContextActor, Input};
use crate::clock;
use braid_core::title;
use braid_protocol::{Notice, NoticeCode};

impl ContextActor {
    /// Called when the machine comes to rest.
    pub(super) fn maybe_title(&mut self) {
        if !self.shared.config.model_titles || self.titling {
            return;
        }
        let Some(input) = self.ctx.title_input() else { return };
        let filter = self.filter();
        self.titling = true;
        let fallback = title::from_question(&title::first_question(&self.ctx.conversation).unwrap_or_default());
        let mailbox = self.mailbox.clone();
        let Ok(model) = self.shared.providers.resolve(self.ctx.model_choice()) else {
            let _ = mailbox.send(Input::AutoTitle(fallback));
            return;
        };
        tokio::spawn(async move {
            let max_tokens = title::MAX_TOKENS.min(model.max_output_tokens);
            let reply = crate::summary_task::complete(
                model.provider,
                model.model,
                title::INSTRUCTIONS,
                input,
                max_tokens,
                &filter,
            )
            .await;
            let name = reply.ok().and_then(|r| title::from_reply(&r)).unwrap_or(fallback);
            let _ = mailbox.send(Input::AutoTitle(name));
        });
    }

    /// The core takes `name` unless the conversation was named meanwhile.
    pub(super) fn auto_title(&mut self, name: String) {
        let now = clock::now();
        let Some(step) = self.ctx.auto_title(name, now) else { return };
        match self.carry_out(step) {
            Some(Err(e)) => {
                tracing::warn!(context = %self.ctx.meta.id, error = %e, "the conversation could not be named")
            }
            _ => {
                let message = format!("Named “{}”", self.ctx.meta.title);
                self.emit_notice(Notice { code: NoticeCode::Titled, message }, now)
            }
        }
    }
}
