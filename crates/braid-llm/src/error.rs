//! Provider failures, classified once here so the state machine only asks
//! "retry or not". Each variant's message is what the user reads.

use braid_core::llm::LlmFailure;
use braid_protocol::FailureCode;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// Connect failure, timeout, reset. Retried.
    #[error("could not reach {provider}: {detail}")]
    Network { provider: String, detail: String },
    /// The stream stopped before its end marker. Retried.
    #[error("the answer from {provider} was cut off before it finished")]
    StreamCut { provider: String },
    /// HTTP 200 with an empty body: not a cut stream (nothing came at
    /// all). Not retried as is.
    #[error("{provider} answered with an empty response")]
    EmptyResponse { provider: String },
    /// 429. Retried, honouring Retry-After.
    #[error("{provider} is rate limiting requests: {message}")]
    RateLimited { provider: String, message: String, retry_after_ms: Option<u64> },
    /// 5xx. Retried.
    #[error("{provider} had a server error ({status}): {message}")]
    Server { provider: String, status: u16, message: String },
    /// 401/403. Not retried.
    #[error("check the API key for {provider}: {message}")]
    Auth { provider: String, message: String },
    /// The prompt is too long for the model. Not retried as is: context
    /// optimisation reacts to its code.
    #[error("the conversation is too long for the model: {message}")]
    ContextLengthExceeded { message: String },
    /// Other 4xx. Not retried.
    #[error("{provider} rejected the request ({status}): {message}")]
    BadRequest { provider: String, status: u16, message: String },
    /// The server sent something that is not a valid stream. Not retried.
    #[error("{provider} sent an invalid response: {detail}")]
    Protocol { provider: String, detail: String },
    /// The built-in model could not load or run. Not retried.
    #[error("the built-in model failed: {message}")]
    Local { message: String },
}

impl LlmError {
    pub fn code(&self) -> FailureCode {
        match self {
            LlmError::Network { .. } => FailureCode::Network,
            LlmError::StreamCut { .. } => FailureCode::StreamCut,
            LlmError::EmptyResponse { .. } => FailureCode::EmptyResponse,
            LlmError::RateLimited { .. } => FailureCode::RateLimited,
            LlmError::Server { .. } => FailureCode::ServerError,
            LlmError::Auth { .. } => FailureCode::Auth,
            LlmError::ContextLengthExceeded { .. } => FailureCode::ContextLengthExceeded,
            LlmError::BadRequest { .. } => FailureCode::BadRequest,
            LlmError::Protocol { .. } => FailureCode::Protocol,
            LlmError::Local { .. } => FailureCode::ServerError,
        }
    }

    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            LlmError::Network { .. }
                | LlmError::StreamCut { .. }
                | LlmError::RateLimited { .. }
                | LlmError::Server { .. }
        )
    }

    pub fn to_failure(&self) -> LlmFailure {
        let retry_after_ms = match self {
            LlmError::RateLimited { retry_after_ms, .. } => *retry_after_ms,
            _ => None,
        };
        LlmFailure { code: self.code(), message: self.to_string(), retryable: self.is_retryable(), retry_after_ms }
    }
}
