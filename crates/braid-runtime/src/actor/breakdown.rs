//! The breakdown of the next request (`/context`): planned by the core
//! from the same facts a request is fitted from, with what is being typed
//! and the files its `@mentions` attach as its newest messages. For a
//! model Braid has no tokenizer for, the model's server counts: the
//! messages (kept per message, as for requests), and — where it can build
//! the whole prompt from its chat template (llama.cpp's) — every part of
//! the system prompt, every tool definition and the request itself, so
//! the view is what the server will read. Looking never holds the
//! conversation's task: the counting runs beside it.

use super::{ContextActor, Input};
use crate::mailbox::{Answer, Counted};
use crate::{clock, model_count};
use braid_core::machine::Looked;
use braid_llm::{LlmProvider, LlmRequest, ToolDefinition};
use braid_protocol::{ContextBreakdown, ErrorCode, Message, MessageId, MessageType, Role, TokenEncoding, WireError};
use std::path::PathBuf;
use std::sync::PoisonError;

impl ContextActor {
    pub(super) fn breakdown(&mut self, draft: &str, answer: Answer<ContextBreakdown>) {
        let resolved = match self.shared.providers.resolve(self.ctx.model_choice()) {
            Ok(r) => r,
            Err(e) => {
                let _ = answer.send(Err(WireError::new(ErrorCode::InvalidState, e)));
                return;
            }
        };
        let mut prepared = self.facts(&resolved, None);
        let drafted = self.drafted(draft);
        if resolved.encoding != TokenEncoding::Estimate {
            let looked = self.ctx.look(prepared, drafted, clock::now());
            let _ = answer.send(Ok(looked.breakdown));
            return;
        }
        self.model_counts_for(&resolved.model);
        let (counts, model, provider) = (self.model_counts.clone(), resolved.model.clone(), resolved.provider.clone());
        let shared = self.secrets_on().then(|| self.shared.clone());
        let mailbox = self.mailbox.clone();
        tokio::spawn(async move {
            let hide = |text: &mut String| {
                if let Some(shared) = &shared {
                    shared.secrets.hide(text);
                }
            };
            let mut all: Vec<Message> = prepared.messages.iter().cloned().chain(drafted).collect();
            let (counted, _) = model_count::apply(provider.as_ref(), &model, &counts, &mut all, hide).await;
            let drafted = all.split_off(prepared.messages.len());
            prepared.messages = all;
            prepared.counted_by_model = counted;
            let look = Counted { prepared, drafted, provider: counted.then_some(provider) };
            let _ = mailbox.send(Input::BreakdownCounted { look: Box::new(look), answer });
        });
    }

    /// The messages the server counted: planned, then counted whole.
    pub(super) fn breakdown_counted(&mut self, look: Counted, answer: Answer<ContextBreakdown>) {
        let Counted { prepared, drafted, provider } = look;
        let model = prepared.model.clone();
        let sees = prepared.sees_images;
        let looked = self.ctx.look(prepared, drafted, clock::now());
        let (Some(provider), Some(planned)) = (provider, looked.request.clone()) else {
            let _ = answer.send(Ok(looked.breakdown));
            return;
        };
        let filter = self.filter();
        tokio::spawn(async move {
            let _ = answer.send(Ok(counted_whole(looked, planned, provider.as_ref(), &model, sees, &filter).await));
        });
    }

    /// What is typed as the message it would be, after the files its
    /// `@mentions` name, read now as the pipeline would read them (nothing
    /// recorded: it is only a look). A mention that cannot be read is
    /// left for the send to refuse.
    fn drafted(&self, draft: &str) -> Vec<Message> {
        if draft.trim().is_empty() {
            return Vec::new();
        }
        let message = Message::new(MessageId(0), clock::now(), MessageType::text(Role::User, draft));
        let workspace = PathBuf::from(self.ctx.folder());
        let mut seen = self.freshness.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let resolved =
            crate::references::resolve_message(message.clone(), Some(&workspace), &mut seen, &self.shared.confine);
        let attached = resolved.map(|(_, attached, _)| attached).unwrap_or_default();
        attached.into_iter().map(|body| Message::new(MessageId(0), clock::now(), body)).chain([message]).collect()
    }
}

/// The planned request counted by the server as it will read it, and the
/// breakdown recounted to match; as it was when the server cannot say.
async fn counted_whole(
    looked: Looked,
    planned: braid_core::machine::PlannedRequest,
    provider: &dyn LlmProvider,
    model: &str,
    sees_images: bool,
    filter: &crate::outbound::Filter,
) -> ContextBreakdown {
    let Looked { mut breakdown, .. } = looked;
    let tools: Vec<ToolDefinition> = planned
        .tools
        .iter()
        .map(|t| ToolDefinition {
            name: t.name.clone(),
            description: t.description.clone(),
            input_schema: t.input_schema.clone(),
        })
        .collect();
    let request = LlmRequest {
        model: model.to_owned(),
        system: braid_protocol::sent::join_parts(planned.system.iter().map(|p| p.text.as_str())),
        messages: braid_core::vision::for_request(planned.messages.clone(), sees_images),
        tools,
        tool_choice: planned.tool_choice.clone(),
        max_tokens: Some(planned.max_tokens),
        temperature: planned.temperature,
    };
    let finished = filter.finish(request);
    let request = finished.request();
    let Some(whole) = provider.count_request(request).await else { return breakdown };
    // Each part as the model reads it: the system prompt's, and each
    // tool's definition as the request encodes it.
    let mut texts: Vec<String> = planned.system.iter().map(|p| p.text.clone()).collect();
    filter.hide_texts(&mut texts);
    texts.extend(braid_llm::openai::encode_tools(&request.tools).iter().map(|t| t.to_string()));
    let Some(counts) = provider.count_tokens(model, texts).await else { return breakdown };
    let (system, tools) = counts.split_at(planned.system.len().min(counts.len()));
    braid_core::machine::recount(&mut breakdown, &planned, system, tools, whole);
    breakdown
}
