//! The facts a request is fitted from, and what the user asks of the
//! window: the breakdown of the next request (`/context`) and the
//! summaries and exclusions they steer. The core decides; this gathers.

use super::ContextActor;
use crate::clock;
use crate::providers::Resolved;
use braid_core::context::WindowOp;
use braid_core::fit::PreparedRequest;
use braid_core::machine::Reply;
use braid_core::prompt;
use braid_protocol::{TeamMember, TokenEncoding, WireError};

impl ContextActor {
    /// What the machine needs to fit a request to `resolved`'s model
    /// (`member`: a team member answers with its instruction file).
    pub(super) fn facts(&self, resolved: &Resolved, member: Option<Box<TeamMember>>) -> PreparedRequest {
        let config = &self.shared.config;
        PreparedRequest {
            model: resolved.view.model.clone(),
            encoding: resolved.encoding,
            window: resolved.view.context_window,
            max_output: config.max_tokens.min(resolved.max_output_tokens),
            model_max_output: resolved.max_output_tokens,
            sees_images: resolved.view.vision,
            calls_tools: resolved.view.tools,
            counted_by_model: false,
            configured_prompt: config.system_prompt.clone(),
            branch_prompt: self
                .ctx
                .conversation
                .system_prompt(self.ctx.conversation.active_branch(), None)
                .map(str::to_owned),
            personal: self.shared.providers.standing_instructions().text(),
            messages: prompt::request_messages(&self.ctx.conversation),
            pinned_summary: prompt::latest_summary(&self.ctx.conversation),
            kept: self.ctx.state.config.kept.iter().copied().collect(),
            changed_files: self.changed_files(),
            workspace: Some(crate::workspace::facts(self.ctx.folder())),
            member_file: member.and_then(|m| self.member_file(&m)),
        }
    }

    /// The user started writing: this conversation's model gets ready
    /// while the rest is typed (the built-in model loads and reads Braid's
    /// base prompt; a provider over the network is built, its key read and
    /// its HTTP clients made), and so do its token tables.
    pub(super) fn warm_up(&self) {
        let Ok(resolved) = self.shared.providers.resolve(self.ctx.model_choice()) else { return };
        warm_token_tables(resolved.encoding);
        resolved.provider.warm(prompt::BASE_PROMPT);
    }

    /// The model's counts of this conversation in the cache: read from
    /// the store the first time (or when the model changed).
    pub(super) fn model_counts_for(&self, model: &str) {
        crate::model_count::for_model(&self.model_counts, model, || {
            self.shared.lock_store().model_counts(&self.ctx.meta.id, model).unwrap_or_else(|e| {
                tracing::warn!(context = %self.ctx.meta.id, error = %e, "the model's stored counts were not read");
                Default::default()
            })
        });
    }

    pub(super) fn window_op(&mut self, op: WindowOp) -> Result<Reply, WireError> {
        let step = self.ctx.window_op(op, clock::now());
        self.carry_out(step).unwrap_or(Ok(Reply::Done))
    }
}

/// The token encoder deserialises its tables on first use: o200k's cost
/// about 70 MB (35 MB of heap, 33 MB of the binary's pages) and 60 ms.
/// They load once someone writes, on a thread of their own, not when a
/// conversation opens: a window only read in stays small, and the tables
/// are ready long before the message is sent. A model without a public
/// tokenizer is estimated with o200k.
fn warm_token_tables(encoding: TokenEncoding) {
    use std::sync::Once;
    static O200K: Once = Once::new();
    static CL100K: Once = Once::new();
    let once = if encoding == TokenEncoding::Cl100k { &CL100K } else { &O200K };
    once.call_once(|| {
        std::thread::spawn(move || braid_core::tokens::warm_up(encoding));
    });
}
