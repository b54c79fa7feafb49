//! LLM requests, summaries and retry timers. Preparing a request gathers
//! facts (the model, the assembled prompt, the tools, the messages) and
//! hands them to the machine; the machine answers with what to send, or
//! with a summary to make first. Nothing here decides what fits.

use super::{sent, ContextActor, Input};
use crate::{clock, llm_task, model_count, summary_task};
use braid_core::fit::SUMMARY_OUTPUT;
use braid_core::llm::LlmFailure;
use braid_core::machine::Event;
use braid_core::prompt;
use braid_llm::{LlmProvider, LlmRequest, ProviderKind, ToolChoice, ToolDefinition};
use braid_protocol::sent::join_parts;
use braid_protocol::{
    AgentType, Message, MessageId, MessageType, RequestId, SentPart, TeamMember, Timestamp, TokenEncoding, ToolSpec,
};
use std::path::PathBuf;
use std::sync::Arc;

/// The request as the machine fitted it.
pub(super) struct Fitted {
    pub system: Vec<SentPart>,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    pub tool_choice: Option<ToolChoice>,
    pub max_tokens: u32,
    pub temperature: Option<f64>,
}

/// What a prepared request still needs when the machine says send it.
pub(super) struct Outgoing {
    request_id: RequestId,
    provider: Arc<dyn LlmProvider>,
    model: String,
    kind: ProviderKind,
    sees_images: bool,
    encoding: TokenEncoding,
}

impl ContextActor {
    /// `StartLlmRequest`: resolve the model and assemble everything the
    /// machine needs to fit the request, then hand it over.
    pub(super) fn prepare_request(&mut self, request_id: RequestId, member: Option<Box<TeamMember>>) {
        if let Some(old) = self.llm.take() {
            old.handle.abort();
        }
        // A team member answers with its own model, or runs its CLI.
        if let Some(cli) = member.as_deref().filter(|m| !matches!(m.agent, AgentType::Api { .. })) {
            return self.prepare_agent(request_id, cli);
        }
        let model = match member.as_deref().map(|m| &m.agent) {
            Some(AgentType::Api { model: Some(model) }) => Some(model),
            _ => self.ctx.model_choice(),
        };
        let resolved = match self.shared.providers.resolve(model) {
            Ok(r) => r,
            Err(message) => {
                let failure = LlmFailure::fatal(braid_protocol::FailureCode::NoProvider, message);
                let _ = self.mailbox.send(Input::Event(Event::LlmFailed { request_id, failure }));
                return;
            }
        };
        let enc = resolved.encoding;
        let prepared = self.facts(&resolved, member);
        if enc == TokenEncoding::Estimate {
            self.model_counts_for(&resolved.model);
        }
        let counting = (enc == TokenEncoding::Estimate)
            .then(|| (resolved.provider.clone(), resolved.model.clone(), self.model_counts.clone()));
        let store = (self.shared.clone(), self.ctx.meta.id.clone());
        // The server counts what the model will read: placeholders, never
        // the secrets (its tokenizer is as far from here as its model).
        let shared = self.secrets_on().then(|| self.shared.clone());
        self.outgoing = Some(Outgoing {
            request_id,
            provider: resolved.provider,
            model: resolved.model,
            kind: resolved.kind,
            sees_images: resolved.view.vision,
            encoding: enc,
        });
        let mailbox = self.mailbox.clone();
        let mut prepared = prepared;
        let Some((provider, model, counts)) = counting else {
            let event = Event::RequestPrepared { request_id, prepared: Box::new(prepared) };
            let _ = mailbox.send(Input::Event(event));
            return;
        };
        // A round trip to the server only when the counts can matter: a
        // short conversation's answer does not wait for it.
        let (all, tokens) = model_count::from_cache(&counts, &mut prepared.messages);
        if all || !braid_core::fit::needs_model_counts(tokens, prepared.window, prepared.max_output) {
            prepared.counted_by_model = all;
            let event = Event::RequestPrepared { request_id, prepared: Box::new(prepared) };
            let _ = mailbox.send(Input::Event(event));
            return;
        }
        // The model's server counts what Braid cannot (a stale answer is
        // ignored by the machine if the request was cancelled meanwhile).
        tokio::spawn(async move {
            let mut prepared = prepared;
            let hide = |text: &mut String| {
                if let Some(shared) = &shared {
                    shared.secrets.hide(text);
                }
            };
            let (all, made) =
                model_count::apply(provider.as_ref(), &model, &counts, &mut prepared.messages, hide).await;
            prepared.counted_by_model = all;
            if !made.is_empty() {
                let (shared, id) = store;
                let saved = shared.lock_store().save_model_counts(&id, &model, &made);
                if let Err(e) = saved {
                    // Only a cost: they are asked for again after a restart.
                    tracing::warn!(context = %id, error = %e, "the model's counts were not stored");
                }
            }
            let event = Event::RequestPrepared { request_id, prepared: Box::new(prepared) };
            let _ = mailbox.send(Input::Event(event));
        });
    }

    /// `SendLlmRequest`: the machine fitted the request; stream the answer.
    pub(super) fn send_request(&mut self, request_id: RequestId, fitted: Fitted) {
        let Fitted { mut system, messages, tools, tool_choice, max_tokens, temperature } = fitted;
        let Some(out) = self.outgoing.take_if(|o| o.request_id == request_id) else {
            tracing::warn!(context = %self.ctx.meta.id, %request_id, "send without a prepared request");
            return;
        };
        // Models that see get the pixels (attached in the task: scaling
        // takes milliseconds); the others get what was read from them.
        let messages = braid_core::vision::for_request(messages, out.sees_images);
        // The parts as "what the model sees" shows them: placeholders.
        let in_parts = self.hide_secrets_in(&mut system);
        let pixels = messages.iter().any(|m| matches!(m.body, MessageType::Image { .. })).then(|| llm_task::Pixels {
            images: self.shared.images.clone(),
            workspace: PathBuf::from(self.ctx.folder()),
            limits: braid_core::vision::limits_for(out.kind),
        });
        let request = LlmRequest {
            model: out.model.clone(),
            system: join_parts(system.iter().map(|p| p.text.as_str())),
            messages,
            tools: tools
                .iter()
                .map(|t| ToolDefinition {
                    name: t.name.clone(),
                    description: t.description.clone(),
                    input_schema: t.input_schema.clone(),
                })
                .collect(),
            tool_choice: tool_choice.clone(),
            max_tokens: Some(max_tokens),
            temperature,
        };
        let finished = self.filter().finish(request);
        self.tell_secrets_hidden(finished.hidden().iter().chain(&in_parts));
        let seen = sent::record(sent::Sending {
            at: clock::now(),
            provider: out.provider.name(),
            model: &out.model,
            encoding: out.encoding,
            sees_images: out.sees_images,
            messages: &finished.request().messages,
            tools: &tools,
            tool_choice: tool_choice.as_ref(),
            max_tokens,
            temperature,
            left_out: self.ctx.state.book.last_sent.as_ref().map_or(0, |u| u.left_out),
            tools_held_back: self
                .ctx
                .state
                .book
                .last_sent
                .as_ref()
                .map_or_else(Vec::new, |u| u.tools_held_back.clone()),
            system,
        });
        self.shared.sent.record(&self.ctx.meta.id, seen);
        self.llm = Some(llm_task::spawn(
            out.provider,
            finished,
            request_id,
            self.reports(),
            pixels,
            self.shared.sent.entry(&self.ctx.meta.id),
        ));
    }

    /// Asks the model for a summary of `batch` (ids as sent; what it
    /// covers is the core's `prompt::summary_job`).
    pub(super) fn start_summary(&mut self, request_id: RequestId, batch: Vec<MessageId>, instructions: Option<String>) {
        let resolved = match self.shared.providers.resolve(self.ctx.model_choice()) {
            Ok(r) => r,
            Err(error) => {
                let _ = self.mailbox.send(Input::Event(Event::SummaryFailed { request_id, error }));
                return;
            }
        };
        let reads = braid_core::fit::summariser_reads(resolved.view.context_window);
        let (replaces, input) = prompt::summary_job(&self.ctx.conversation, &batch, reads);
        let job = summary_task::SummaryJob {
            provider: resolved.provider,
            model: resolved.model,
            request_id,
            replaces,
            input,
            max_tokens: SUMMARY_OUTPUT.min(resolved.max_output_tokens),
            instructions,
            filter: self.filter(),
        };
        if let Some((_, old)) = self.summary.replace((request_id, summary_task::spawn(job, self.reports()))) {
            old.abort();
        }
    }

    pub(super) fn abort_llm(&mut self, request_id: RequestId, keep_partial: bool) {
        if let Some((_, task)) = self.summary.take_if(|(id, _)| *id == request_id) {
            task.abort();
        }
        self.outgoing.take_if(|o| o.request_id == request_id);
        let Some(mut task) = self.llm.take() else { return };
        if task.request_id != request_id {
            self.llm = Some(task);
            return;
        }
        if keep_partial {
            if let Some(stop) = task.stop.take() {
                let _ = stop.send(());
            }
        } else {
            // Dropping the stream closes the connection at once.
            task.handle.abort();
        }
    }

    pub(super) fn schedule_retry(&mut self, request_id: RequestId, at: Timestamp) {
        let delay = std::time::Duration::from_millis(clock::now().ms_until(at));
        let mailbox = self.mailbox.clone();
        let handle = tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let _ = mailbox.send(Input::Event(Event::RetryTimerFired { request_id }));
        });
        if let Some((_, old)) = self.retry.replace((request_id, handle)) {
            old.abort();
        }
    }

    pub(super) fn cancel_retry(&mut self, request_id: RequestId) {
        if let Some((_, handle)) = self.retry.take_if(|(id, _)| *id == request_id) {
            handle.abort();
        }
    }
}
