//! What the core knows of an LLM exchange: a finished response and a
//! classified failure. Providers (braid-llm) produce these; the core never
//! sees HTTP.

use braid_protocol::FailureCode;
use serde::{Deserialize, Serialize};

/// Whether and which tool the model must call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToolChoice {
    /// The model decides.
    Auto,
    /// The model must call some tool.
    Required,
    /// The model must call this one.
    Function(String),
    /// The tools are declared (the history holds calls of them, which some
    /// providers refuse without their definitions) but may not be called.
    None,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallSpec {
    pub id: String,
    pub name: String,
    /// JSON text as the model produced it.
    pub arguments: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
}

impl From<Usage> for braid_protocol::TokenUsage {
    fn from(u: Usage) -> braid_protocol::TokenUsage {
        braid_protocol::TokenUsage { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    #[default]
    EndTurn,
    ToolUse,
    MaxTokens,
    /// The user interrupted; the text is what had arrived.
    Interrupted,
    Other(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LlmResponse {
    pub text: String,
    pub tool_calls: Vec<ToolCallSpec>,
    /// `None` when the server reported no usage: never invented.
    pub usage: Option<Usage>,
    pub stop_reason: StopReason,
}

impl LlmResponse {
    pub fn text(text: impl Into<String>) -> LlmResponse {
        LlmResponse { text: text.into(), ..LlmResponse::default() }
    }
}

/// A failed request, already classified by the provider layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmFailure {
    /// Stable code the UI switches on, e.g. `network`, `rate_limited`,
    /// `server_error`, `auth`, `context_length_exceeded`, `bad_request`.
    pub code: FailureCode,
    /// What the user reads: specific and actionable.
    pub message: String,
    /// Network, 429, 5xx and cut streams are retried; the rest are not.
    pub retryable: bool,
    /// The server's `Retry-After`, when it sent one.
    pub retry_after_ms: Option<u64>,
}

impl LlmFailure {
    pub fn retryable(code: FailureCode, message: impl Into<String>) -> LlmFailure {
        LlmFailure { code, message: message.into(), retryable: true, retry_after_ms: None }
    }
    pub fn fatal(code: FailureCode, message: impl Into<String>) -> LlmFailure {
        LlmFailure { code, message: message.into(), retryable: false, retry_after_ms: None }
    }
}
