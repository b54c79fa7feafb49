//! The one error shape the UI sees: `{code, message}`. The UI switches on
//! `code`, never on the message text.

use serde::{Deserialize, Serialize};
use std::fmt;
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A message arrived while the context was busy and was not queued.
    AgentBusy,
    /// The input failed validation; the message says which rule.
    InvalidInput,
    NotFound,
    /// The database could not read or write; the message names the context.
    Storage,
    /// The model provider failed (network, HTTP status, bad stream).
    Provider,
    /// The request does not apply in the current state.
    InvalidState,
    Internal,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::AgentBusy => "agent_busy",
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Storage => "storage",
            ErrorCode::Provider => "provider",
            ErrorCode::InvalidState => "invalid_state",
            ErrorCode::Internal => "internal",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WireError {
    pub code: ErrorCode,
    pub message: String,
}

impl WireError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> WireError {
        WireError { code, message: message.into() }
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for WireError {}
