//! What goes to a model from this conversation, with its secrets hidden
//! (see [`crate::secret_mask`]); and tool calls, which get them back.

use super::ContextActor;
use crate::clock;
use braid_protocol::{Message, Notice, NoticeCode, ToolCall};
use std::path::Path;

impl ContextActor {
    pub(super) fn secrets_on(&self) -> bool {
        self.shared.secrets.on_for(Path::new(self.ctx.folder()))
    }

    /// Text for a model (a summary's, a title's, a team member's prompt).
    pub(super) fn hide_secrets(&self, text: &mut String) {
        if self.secrets_on() {
            self.shared.secrets.hide(text);
        }
    }

    /// The request's system parts and messages; the first time a request
    /// hides more values than before, a notice says how many.
    pub(super) fn hide_secrets_in_request(
        &mut self,
        system: &mut [braid_protocol::SentPart],
        messages: &mut [Message],
    ) {
        if !self.secrets_on() {
            return;
        }
        let mut hidden = self.shared.secrets.hide_messages(messages);
        for part in system {
            let before = part.text.clone();
            if self.shared.secrets.hide(&mut part.text) > 0 {
                hidden.extend(changed_placeholders(&before, &part.text));
            }
        }
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

    /// An approved call as it runs: its placeholders replaced by values.
    pub(super) fn with_secrets(&self, mut call: ToolCall) -> ToolCall {
        call.arguments = self.shared.secrets.reveal(&call.arguments);
        call
    }
}

/// The placeholders in `after` that `before` did not hold.
fn changed_placeholders(before: &str, after: &str) -> Vec<String> {
    after
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.starts_with("secret-") && !before.contains(*w))
        .map(str::to_owned)
        .collect()
}
