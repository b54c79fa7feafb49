//! Summarising older messages with the conversation's own model: one
//! request, not streamed to anyone; its text comes back as a core event.

use crate::outbound::Filter;
use crate::report::Reports;
use braid_core::machine::Event;
use braid_llm::{LlmProvider, LlmRequest};
use braid_protocol::{Message, MessageId, RequestId};
use std::sync::Arc;

pub struct SummaryJob {
    pub provider: Arc<dyn LlmProvider>,
    pub model: String,
    pub request_id: RequestId,
    pub replaces: Vec<MessageId>,
    pub input: String,
    pub max_tokens: u32,
    /// What the user asked the summary to keep.
    pub instructions: Option<String>,
    /// Hides the secrets of the input and of the instructions alike.
    pub filter: Filter,
}

/// One request for a summary, not streamed to anyone: its text, or why
/// there is none.
pub async fn complete(
    provider: Arc<dyn LlmProvider>,
    model: String,
    instructions: &str,
    input: String,
    max_tokens: u32,
    filter: &Filter,
) -> Result<String, String> {
    let request = LlmRequest {
        model,
        system: Some(instructions.to_owned()),
        messages: vec![Message::new(
            MessageId(0),
            braid_protocol::Timestamp(0),
            braid_protocol::MessageType::text(braid_protocol::Role::User, input),
        )],
        tools: Vec::new(),
        tool_choice: None,
        max_tokens: Some(max_tokens),
        temperature: None,
    };
    match crate::complete::complete_text(provider.as_ref(), filter.finish(request)).await?.as_str() {
        "" => Err("the model returned an empty summary".to_owned()),
        text => Ok(text.to_owned()),
    }
}

pub fn spawn(job: SummaryJob, reports: Reports) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let instructions = braid_core::prompt::summary_instructions(job.instructions.as_deref());
        let done = complete(job.provider, job.model, &instructions, job.input, job.max_tokens, &job.filter).await;
        let event = match done {
            Err(error) => Event::SummaryFailed { request_id: job.request_id, error },
            Ok(text) => Event::SummaryReady { request_id: job.request_id, text, replaces: job.replaces },
        };
        reports.event(event);
    })
}
