//! Folds a provider stream into one response: text concatenated, tool calls
//! put together by index, usage kept as reported (never invented).

use crate::{LlmError, ProviderEvent};
use braid_core::llm::{LlmResponse, StopReason, ToolCallSpec, Usage};
use std::collections::BTreeMap;

#[derive(Debug, Default)]
pub struct ResponseAssembler {
    text: String,
    calls: BTreeMap<u32, ToolCallSpec>,
    usage: Option<Usage>,
    finished: Option<StopReason>,
}

impl ResponseAssembler {
    pub fn new() -> ResponseAssembler {
        ResponseAssembler::default()
    }

    /// A text delta, read where it lies (the delta itself goes on to the
    /// context; the answer keeps a copy of its text here).
    pub fn push_text(&mut self, text: &str) {
        self.text.push_str(text);
    }

    pub fn push(&mut self, event: &ProviderEvent) {
        match event {
            ProviderEvent::Connected => {}
            ProviderEvent::TextDelta(t) => self.text.push_str(t),
            ProviderEvent::ToolCallDelta { index, id, name, arguments } => {
                let call = self.calls.entry(*index).or_insert_with(|| ToolCallSpec {
                    id: String::new(),
                    name: String::new(),
                    arguments: String::new(),
                });
                // Some servers repeat id and name in every fragment: take
                // them once, or the name doubles ("read_fileread_file").
                if let Some(id) = id.as_deref().filter(|s| !s.is_empty()) {
                    if call.id.is_empty() {
                        call.id = id.to_owned();
                    }
                }
                if let Some(name) = name.as_deref().filter(|s| !s.is_empty()) {
                    if call.name.is_empty() {
                        call.name = name.to_owned();
                    }
                }
                call.arguments.push_str(arguments);
            }
            ProviderEvent::Usage(u) => self.usage = Some(*u),
            ProviderEvent::Note(_) | ProviderEvent::SentAgainWithoutTools => {}
            ProviderEvent::Finished(reason) => self.finished = Some(reason.clone()),
        }
    }

    pub fn is_finished(&self) -> bool {
        self.finished.is_some()
    }

    fn build(self, stop_reason: StopReason) -> LlmResponse {
        let tool_calls = self
            .calls
            .into_values()
            .map(|mut c| {
                if c.arguments.trim().is_empty() {
                    c.arguments = "{}".to_owned();
                }
                c
            })
            .collect();
        LlmResponse { text: self.text, tool_calls, usage: self.usage, stop_reason }
    }

    /// The finished response; an error if the stream ended without its end
    /// marker (a cut stream is never a silent success).
    pub fn finish(mut self, provider: &str) -> Result<LlmResponse, LlmError> {
        match self.finished.take() {
            Some(reason) => Ok(self.build(reason)),
            None => Err(LlmError::StreamCut { provider: provider.to_owned() }),
        }
    }

    /// What arrived before the user interrupted: text only, since a tool
    /// call cut in the middle cannot be trusted.
    pub fn interrupted(mut self) -> LlmResponse {
        self.calls.clear();
        self.build(StopReason::Interrupted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_calls_assemble_by_index_without_doubled_names() {
        let mut a = ResponseAssembler::new();
        let frag = |index, id: Option<&str>, name: Option<&str>, args: &str| ProviderEvent::ToolCallDelta {
            index,
            id: id.map(str::to_owned),
            name: name.map(str::to_owned),
            arguments: args.to_owned(),
        };
        a.push(&ProviderEvent::TextDelta("Let me ".into()));
        a.push(&frag(0, Some("c1"), Some("read_file"), "{\"pa"));
        a.push(&frag(1, Some("c2"), Some("list_directory"), ""));
        a.push(&frag(0, Some("c1"), Some("read_file"), "th\":\"a\"}"));
        a.push(&ProviderEvent::TextDelta("look.".into()));
        a.push(&ProviderEvent::Usage(Usage { prompt_tokens: 10, completion_tokens: 5 }));
        a.push(&ProviderEvent::Finished(StopReason::ToolUse));
        let r = a.finish("test").unwrap();
        assert_eq!(r.text, "Let me look.");
        assert_eq!(
            r.tool_calls,
            [
                ToolCallSpec { id: "c1".into(), name: "read_file".into(), arguments: "{\"path\":\"a\"}".into() },
                ToolCallSpec { id: "c2".into(), name: "list_directory".into(), arguments: "{}".into() },
            ]
        );
        assert_eq!(r.usage, Some(Usage { prompt_tokens: 10, completion_tokens: 5 }));
    }

    #[test]
    fn a_stream_without_its_end_is_an_error() {
        let mut a = ResponseAssembler::new();
        a.push(&ProviderEvent::TextDelta("half".into()));
        assert_eq!(a.finish("Ollama"), Err(LlmError::StreamCut { provider: "Ollama".into() }));
    }

    #[test]
    fn usage_is_none_when_the_server_sends_none() {
        let mut a = ResponseAssembler::new();
        a.push(&ProviderEvent::Finished(StopReason::EndTurn));
        assert_eq!(a.finish("x").unwrap().usage, None);
    }

    #[test]
    fn errors_classify_into_retryable_and_not() {
        assert!(LlmError::Server { provider: "p".into(), status: 503, message: "busy".into() }.to_failure().retryable);
        let f = LlmError::RateLimited { provider: "p".into(), message: "slow down".into(), retry_after_ms: Some(7000) }
            .to_failure();
        assert_eq!(
            (f.code, f.retryable, f.retry_after_ms),
            (braid_protocol::FailureCode::RateLimited, true, Some(7000))
        );
        let f = LlmError::Auth { provider: "OpenAI".into(), message: "invalid key".into() }.to_failure();
        assert_eq!((f.code, f.retryable), (braid_protocol::FailureCode::Auth, false));
        assert_eq!(f.message, "check the API key for OpenAI: invalid key");
    }
}
