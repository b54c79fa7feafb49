//! How Braid talks to models: the [`LlmProvider`] trait, the provider events
//! a stream yields, the classified [`LlmError`], and the
//! [`ResponseAssembler`] that turns a stream into one finished response.
//!
//! [`HttpProvider`] speaks the three families (OpenAI-compatible,
//! Anthropic, Gemini) over HTTP with SSE; encoding and decoding are pure
//! functions in [`openai`], [`anthropic`], [`gemini`] and [`sse`]. The
//! scriptable [`fake`] provider (feature
//! `test-support`) lets tests and the demo CLI push a chunk, a tool call, an
//! error, a stall or the end of a stream one step at a time.

pub mod anthropic;
mod assemble;
pub mod catalogue;
pub mod echo;
mod error;
#[cfg(feature = "test-support")]
pub mod fake;
pub mod gemini;
pub mod http;
pub mod http_error;
pub mod local;
pub mod openai;
pub mod render;
pub mod secrets;
pub mod settings;
pub mod sse;

pub use assemble::ResponseAssembler;
pub use error::LlmError;
pub use http::{ApiKey, HttpProvider, ProviderKind, Timeouts};

use braid_core::llm::{StopReason, Usage};
use braid_protocol::Message;
use futures::stream::BoxStream;

/// A tool the model may call, in provider-neutral form.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    pub input_schema: serde_json::Value,
}

/// Everything a provider needs for one request.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmRequest {
    pub model: String,
    pub system: Option<String>,
    /// The active branch as it goes to the model, oldest first.
    pub messages: Vec<Message>,
    pub tools: Vec<ToolDefinition>,
    /// Whether and which tool the model must call; `None` is the
    /// provider's default (auto when tools are given).
    pub tool_choice: Option<ToolChoice>,
    pub max_tokens: Option<u32>,
    /// `None`: the model's default.
    pub temperature: Option<f64>,
}

pub use braid_core::llm::ToolChoice;

/// One step of a streamed response.
#[derive(Debug, Clone, PartialEq)]
pub enum ProviderEvent {
    /// The server accepted the request (response headers arrived).
    Connected,
    TextDelta(String),
    /// A fragment of a tool call; fragments with the same index form one
    /// call. `id` and `name` may be repeated by some servers.
    ToolCallDelta {
        index: u32,
        id: Option<String>,
        name: Option<String>,
        arguments: String,
    },
    Usage(Usage),
    /// Something the user should know about how this answer came (it does
    /// not change the answer).
    Note(String),
    /// The server answered nothing with tools offered, so the same request
    /// went again without them (what the model saw changed).
    SentAgainWithoutTools,
    /// The end of the stream. A stream that stops without this was cut.
    Finished(StopReason),
}

pub type LlmStream = BoxStream<'static, Result<ProviderEvent, LlmError>>;

pub trait LlmProvider: Send + Sync + 'static {
    /// A short name for messages ("OpenAI", "Ollama", "fake").
    fn name(&self) -> &str;
    /// Starts the request. Dropping the stream closes the connection.
    fn stream(&self, request: LlmRequest) -> LlmStream;
    /// Tokens of each text in the model's own tokenizer, when the server
    /// can count them (local servers); `None` otherwise.
    fn count_tokens(&self, _model: &str, _texts: Vec<String>) -> futures::future::BoxFuture<'static, Option<Vec<u32>>> {
        Box::pin(async { None })
    }
    /// Tokens of the whole request as the model's server reads it (its
    /// chat template applied: roles, separators, the tools as it writes
    /// them), when the server can say (llama.cpp's own); `None` otherwise.
    fn count_request(&self, _request: &LlmRequest) -> futures::future::BoxFuture<'static, Option<u32>> {
        Box::pin(async { None })
    }
    /// Gets ready for a request with this system prompt, in the
    /// background: a model run in-process loads and reads the prompt now,
    /// so the first question reads only itself. Servers do nothing.
    fn warm(&self, _system: &str) {}
}
