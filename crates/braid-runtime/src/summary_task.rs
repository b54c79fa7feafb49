//! Summarising older messages with the conversation's own model: one
//! request, not streamed to anyone; its text comes back as a core event.

use crate::actor::Input;
use braid_core::machine::Event;
use braid_llm::{LlmProvider, LlmRequest, ResponseAssembler};
use braid_protocol::{Message, MessageId, RequestId};
use futures::StreamExt;
use std::sync::Arc;
use tokio::sync::mpsc;

pub struct SummaryJob {
    pub provider: Arc<dyn LlmProvider>,
    pub model: String,
    pub request_id: RequestId,
    pub replaces: Vec<MessageId>,
    pub input: String,
    pub max_tokens: u32,
}

pub fn spawn(job: SummaryJob, mailbox: mpsc::UnboundedSender<Input>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let request = LlmRequest {
            model: job.model,
            system: Some(braid_core::prompt::SUMMARY_INSTRUCTIONS.to_owned()),
            messages: vec![Message::new(
                MessageId(0),
                braid_protocol::Timestamp(0),
                braid_protocol::MessageType::text(braid_protocol::Role::User, job.input),
            )],
            tools: Vec::new(),
            tool_choice: None,
            max_tokens: Some(job.max_tokens),
            temperature: None,
        };
        let mut stream = job.provider.stream(request);
        let mut assembler = ResponseAssembler::new();
        let mut failed = None;
        while let Some(item) = stream.next().await {
            match item {
                Ok(e) => {
                    assembler.push(&e);
                    if assembler.is_finished() {
                        break;
                    }
                }
                Err(e) => {
                    failed = Some(e.to_string());
                    break;
                }
            }
        }
        drop(stream);
        let event = match (failed, assembler.finish(job.provider.name())) {
            (Some(error), _) => Event::SummaryFailed { request_id: job.request_id, error },
            (None, Err(e)) => Event::SummaryFailed { request_id: job.request_id, error: e.to_string() },
            (None, Ok(r)) if r.text.trim().is_empty() => {
                Event::SummaryFailed { request_id: job.request_id, error: "the model returned an empty summary".into() }
            }
            (None, Ok(r)) => Event::SummaryReady {
                request_id: job.request_id,
                text: r.text.trim().to_owned(),
                replaces: job.replaces,
            },
        };
        let _ = mailbox.send(Input::Event(event));
    })
}
