//! What goes to a model from this conversation, with its secrets hidden
//! (see [`crate::secret_mask`]); and tool calls, which get them back —
//! with what to look for in their output, which the core keeps from the
//! model when it may carry a secret given back.

use super::ContextActor;
use crate::clock;
use braid_core::secrets::Exposure;
use braid_protocol::{Message, Notice, NoticeCode, ToolCall};
use std::path::Path;

impl ContextActor {
    pub(super) fn secrets_on(&self) -> bool {
        self.shared.secrets.on_for(Path::new(self.ctx.folder()))
    }

    /// A team member CLI's prompt (it goes to a process, not a request).
    pub(super) fn hide_secrets(&self, text: &mut String) {
        if self.secrets_on() {
            self.shared.secrets.hide(text);
        }
    }

    /// The filter for a request this conversation makes off its task.
    pub(super) fn filter(&self) -> crate::outbound::Filter {
        crate::outbound::Filter::new(&self.shared.secrets, self.secrets_on())
    }

    /// The system prompt's parts with their secrets hidden, as "what the
    /// model sees" shows them; the placeholders that stand in them.
    pub(super) fn hide_secrets_in(&self, system: &mut [braid_protocol::SentPart]) -> Vec<String> {
        if !self.secrets_on() {
            return Vec::new();
        }
        system.iter_mut().flat_map(|part| self.shared.secrets.hide(&mut part.text)).collect()
    }

    /// The first time a request hides more values than before, a notice
    /// says how many; the first request after the filter's key was
    /// replaced says so.
    pub(super) fn tell_secrets_hidden<'a>(&mut self, placeholders: impl Iterator<Item = &'a String>) {
        if !self.secrets_on() {
            return;
        }
        if let Some(why) = self.shared.secrets.key_problem().filter(|_| !self.key_noticed) {
            self.key_noticed = true;
            let text = format!(
                "The secret filter's key {why}, so a new one was made: placeholders from earlier requests no longer \
                 match their secrets, and a tool call that repeats one is refused. Give the model the value again \
                 if it needs it."
            );
            self.emit_notice(Notice::new(NoticeCode::SecretsKeyReplaced, text), clock::now());
        }
        let hidden: std::collections::BTreeSet<&String> = placeholders.collect();
        if hidden.len() > self.secrets_noticed {
            self.secrets_noticed = hidden.len();
            let n = hidden.len();
            let text = format!(
                "{n} secret{} hidden from the model: placeholders stand in for {}, and tools get the real value{} \
                 when they run",
                if n == 1 { " was" } else { "s were" },
                if n == 1 { "it" } else { "them" },
                if n == 1 { "" } else { "s" },
            );
            self.emit_notice(Notice::new(NoticeCode::SecretsHidden, text), clock::now());
        }
    }

    /// An approved call as it runs: its placeholders replaced by values,
    /// and what its output is looked at for (every secret this
    /// conversation's calls were given, this one's included). A
    /// placeholder that stands for nothing refuses the call: run as text
    /// it would do something else than what the user approved.
    pub(super) fn with_secrets(&self, mut call: ToolCall) -> Result<(ToolCall, Option<Exposure>), String> {
        let earlier = || self.ctx.conversation.active_messages().cloned().collect::<Vec<Message>>();
        let revealed = self.shared.secrets.reveal(&call.arguments, earlier);
        if !revealed.unknown.is_empty() {
            return Err(format!(
                "not run: {} stand{} for no secret Braid knows — a placeholder from before the secret filter's key \
                 was replaced, or one made up. Ask the user for the value instead.",
                revealed.unknown.join(", "),
                if revealed.unknown.len() == 1 { "s" } else { "" }
            ));
        }
        call.arguments = revealed.text;
        self.shared.secrets.look_again(std::path::Path::new(self.ctx.folder()), &call.arguments);
        let mut used = braid_core::secrets::used_in(self.ctx.conversation.active_messages());
        used.extend(revealed.used.into_iter().filter(|p| !used.contains(p)).collect::<Vec<_>>());
        let exposure = self.shared.secrets.exposure(&used);
        Ok((call, (!exposure.is_empty()).then_some(exposure)))
    }
}
