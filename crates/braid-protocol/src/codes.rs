//! The codes clients switch on: why a context failed, and what a notice
//! is about. Enums, so the UI (through the generated TypeScript) can
//! never match on message text or on a misspelt string. `Other` keeps
//! rows written by a newer Braid readable.

use crate::ErrorCode;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Why a request (or the context) failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum FailureCode {
    /// Could not reach the provider. Retried.
    Network,
    /// The stream stopped before its end. Retried.
    StreamCut,
    /// The server answered 200 with nothing in the body.
    EmptyResponse,
    /// HTTP 429. Retried.
    RateLimited,
    /// HTTP 5xx. Retried.
    ServerError,
    /// The API key was refused.
    Auth,
    /// The provider said the prompt is too long.
    ContextLengthExceeded,
    /// The newest message alone does not fit the model's window.
    ContextTooLarge,
    /// Another 4xx.
    BadRequest,
    /// The provider's answer was not a valid stream.
    Protocol,
    /// No provider or model is configured.
    NoProvider,
    /// An image could not be read.
    ImageUnreadable,
    /// A write to the database failed; nothing stored was lost.
    StorageFailed,
    /// The stored state could not be read.
    Storage,
    /// A team member's coding CLI could not run or failed.
    AgentFailed,
    #[serde(other)]
    Other,
}

/// What a notice is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum NoticeCode {
    // A command was refused (the [`ErrorCode`]s).
    AgentBusy,
    InvalidInput,
    NotFound,
    Storage,
    Provider,
    InvalidState,
    Internal,
    /// The message failed in the pipeline and was not added: the composer
    /// gets its text back.
    MessageNotAdded,
    Cancelled,
    /// Stopped; what was done is kept, Continue goes on.
    Interrupted,
    /// Stopping after the running tool.
    Interrupting,
    EmptyResponse,
    /// The answer reached the model's output limit and was cut; Continue
    /// lets the model go on.
    AnswerCut,
    UsageUnreported,
    FileChanged,
    ImageRead,
    ImageFailed,
    OcrUsed,
    /// The tool loop reached its depth limit; Continue goes on.
    LoopLimit,
    /// The same call repeated; the loop stopped. Continue goes on.
    LoopDetected,
    Summarized,
    SummaryFailed,
    /// A summary asked for with a preview waits for approval.
    SummaryPreview,
    /// A summary was taken back or edited.
    SummaryChanged,
    ContextTrimmed,
    /// The server streams nothing when tools are offered: this answer was
    /// asked for in one piece.
    StreamingUnavailable,
    /// The conversation got its title after the first exchange (the
    /// conversation list shows it).
    Titled,
    /// The tools did not fit the model's window beside the conversation:
    /// the last registered were left out of this request.
    ToolsLeftOut,
    /// Team chat: the task was cut to its limit, a member's answer named
    /// someone not in the team, or the chain paused or reached its limit.
    TeamTaskCut,
    AgentFailed,
    TeamUnknownMember,
    TeamPaused,
    TeamLimit,
    /// A sub-agent ended its turn without submitting, or reached its turn
    /// limit: one more turn tells it to submit now.
    SubAgentGrace,
    /// Secrets were hidden from the model (placeholders stand in).
    SecretsHidden,
    /// The secret filter's key was missing or unreadable and a new one
    /// was made: placeholders of earlier requests no longer match.
    SecretsKeyReplaced,
    /// A tool call's output was kept from the model: the call used a
    /// secret (or one used earlier) and what it printed may carry it.
    OutputWithheld,
    /// An MCP server changed a tool's definition: the tool is held (not
    /// offered) until the user accepts the new one in the settings.
    ToolHeld,
    /// A team member's own copy of the workspace: what came back of it,
    /// or why it worked in the folder.
    WorkspaceCopy,
    // A request failed (retried, or the context failed): the
    // [`FailureCode`]s.
    Network,
    StreamCut,
    RateLimited,
    ServerError,
    Auth,
    ContextLengthExceeded,
    ContextTooLarge,
    BadRequest,
    Protocol,
    NoProvider,
    ImageUnreadable,
    StorageFailed,
    #[serde(other)]
    Other,
}

impl NoticeCode {
    /// Notices after which Continue lets the model go on.
    pub const CONTINUABLE: [NoticeCode; 4] =
        [NoticeCode::LoopLimit, NoticeCode::LoopDetected, NoticeCode::Interrupted, NoticeCode::AnswerCut];

    pub fn continuable(self) -> bool {
        NoticeCode::CONTINUABLE.contains(&self)
    }
}

impl From<ErrorCode> for NoticeCode {
    fn from(code: ErrorCode) -> NoticeCode {
        match code {
            ErrorCode::AgentBusy => NoticeCode::AgentBusy,
            ErrorCode::InvalidInput => NoticeCode::InvalidInput,
            ErrorCode::NotFound => NoticeCode::NotFound,
            ErrorCode::Storage => NoticeCode::Storage,
            ErrorCode::Provider => NoticeCode::Provider,
            ErrorCode::InvalidState => NoticeCode::InvalidState,
            ErrorCode::Internal => NoticeCode::Internal,
        }
    }
}

impl From<FailureCode> for NoticeCode {
    fn from(code: FailureCode) -> NoticeCode {
        match code {
            FailureCode::Network => NoticeCode::Network,
            FailureCode::StreamCut => NoticeCode::StreamCut,
            FailureCode::EmptyResponse => NoticeCode::EmptyResponse,
            FailureCode::RateLimited => NoticeCode::RateLimited,
            FailureCode::ServerError => NoticeCode::ServerError,
            FailureCode::Auth => NoticeCode::Auth,
            FailureCode::ContextLengthExceeded => NoticeCode::ContextLengthExceeded,
            FailureCode::ContextTooLarge => NoticeCode::ContextTooLarge,
            FailureCode::BadRequest => NoticeCode::BadRequest,
            FailureCode::Protocol => NoticeCode::Protocol,
            FailureCode::NoProvider => NoticeCode::NoProvider,
            FailureCode::ImageUnreadable => NoticeCode::ImageUnreadable,
            FailureCode::StorageFailed => NoticeCode::StorageFailed,
            FailureCode::Storage => NoticeCode::Storage,
            FailureCode::AgentFailed => NoticeCode::AgentFailed,
            FailureCode::Other => NoticeCode::Other,
        }
    }
}

/// The wire name (`rate_limited`), for logs and the terminal.
fn wire_name<T: Serialize>(code: &T) -> String {
    match serde_json::to_value(code) {
        Ok(serde_json::Value::String(s)) => s,
        _ => "other".to_owned(),
    }
}

impl std::fmt::Display for FailureCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&wire_name(self))
    }
}

impl std::fmt::Display for NoticeCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&wire_name(self))
    }
}
