//! The context state (DESIGN.md §3) as the UI sees it. States carry their
//! progress; there are no `is_streaming`-style flags anywhere.

use crate::codes::FailureCode;
use crate::ids::CallId;
use crate::ids::Timestamp;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ContextStatus {
    #[default]
    Idle,
    ProcessingUserMessage,
    ResolvingFileReferences,
    /// The request is being assembled: the system prompt (base, branch,
    /// mode, tool examples), the tools, the messages and their counts.
    EnhancingSystemPrompt,
    /// Images are read (vision analysis or OCR); `done` of `total`.
    ReadingImages {
        done: u32,
        total: u32,
    },
    /// Fitted into the window; the request is being built (images scaled
    /// for the provider) and is about to be sent.
    PreparingLlmRequest,
    ConnectingToLlm,
    AwaitingLlmFirstChunk,
    StreamingLlmResponse {
        chunks: u32,
        chars: u64,
    },
    ProcessingLlmResponse,
    /// `attempt` is the number of the retry about to be made (1..=max).
    RetryingLlmRequest {
        attempt: u32,
        max: u32,
        retry_at: Timestamp,
    },
    ParsingToolCalls,
    AwaitingToolApproval {
        pending_requests: Vec<CallId>,
        tool_names: Vec<String>,
    },
    /// `index` is 1-based.
    ExecutingTool {
        tool_name: String,
        index: u32,
        total: u32,
        attempt: u32,
    },
    CollectingToolResults,
    ProcessingToolResults,
    ToolAutoLoop {
        depth: u32,
        tools_executed: u32,
    },
    Summarizing,
    AwaitingSubAgents {
        done: u32,
        total: u32,
    },
    Cancelling,
    Failed {
        error_code: FailureCode,
        message: String,
        recoverable: bool,
    },
}

/// A state without its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum StatusKind {
    Idle,
    ProcessingUserMessage,
    ResolvingFileReferences,
    EnhancingSystemPrompt,
    ReadingImages,
    /// Fitted into the window; the request is being built (images scaled
    /// for the provider) and is about to be sent.
    PreparingLlmRequest,
    ConnectingToLlm,
    AwaitingLlmFirstChunk,
    StreamingLlmResponse,
    ProcessingLlmResponse,
    RetryingLlmRequest,
    ParsingToolCalls,
    AwaitingToolApproval,
    ExecutingTool,
    CollectingToolResults,
    ProcessingToolResults,
    ToolAutoLoop,
    Summarizing,
    AwaitingSubAgents,
    Cancelling,
    Failed,
}

impl ContextStatus {
    pub fn kind(&self) -> StatusKind {
        use ContextStatus as S;
        match self {
            S::Idle => StatusKind::Idle,
            S::ProcessingUserMessage => StatusKind::ProcessingUserMessage,
            S::ResolvingFileReferences => StatusKind::ResolvingFileReferences,
            S::EnhancingSystemPrompt => StatusKind::EnhancingSystemPrompt,
            S::ReadingImages { .. } => StatusKind::ReadingImages,
            S::PreparingLlmRequest => StatusKind::PreparingLlmRequest,
            S::ConnectingToLlm => StatusKind::ConnectingToLlm,
            S::AwaitingLlmFirstChunk => StatusKind::AwaitingLlmFirstChunk,
            S::StreamingLlmResponse { .. } => StatusKind::StreamingLlmResponse,
            S::ProcessingLlmResponse => StatusKind::ProcessingLlmResponse,
            S::RetryingLlmRequest { .. } => StatusKind::RetryingLlmRequest,
            S::ParsingToolCalls => StatusKind::ParsingToolCalls,
            S::AwaitingToolApproval { .. } => StatusKind::AwaitingToolApproval,
            S::ExecutingTool { .. } => StatusKind::ExecutingTool,
            S::CollectingToolResults => StatusKind::CollectingToolResults,
            S::ProcessingToolResults => StatusKind::ProcessingToolResults,
            S::ToolAutoLoop { .. } => StatusKind::ToolAutoLoop,
            S::Summarizing => StatusKind::Summarizing,
            S::AwaitingSubAgents { .. } => StatusKind::AwaitingSubAgents,
            S::Cancelling => StatusKind::Cancelling,
            S::Failed { .. } => StatusKind::Failed,
        }
    }

    /// Idle and Failed accept a new user message; every other state is busy.
    pub fn is_busy(&self) -> bool {
        !matches!(self, ContextStatus::Idle | ContextStatus::Failed { .. })
    }

    /// The state in words, with its numbers, as a state line shows it:
    /// [`StatusKind::wording`] filled in with the state's fields.
    pub fn describe(&self, now: Timestamp) -> String {
        let fields = serde_json::to_value(self).unwrap_or_default();
        fill(self.kind().wording(), |key| match (key, self) {
            ("secs", ContextStatus::RetryingLlmRequest { retry_at, .. }) => {
                Some(group(now.ms_until(*retry_at).div_ceil(1000)))
            }
            _ => match fields.get(key)? {
                serde_json::Value::Number(n) => Some(n.as_u64().map_or_else(|| n.to_string(), group)),
                serde_json::Value::String(s) => Some(s.clone()),
                serde_json::Value::Array(items) => {
                    Some(items.iter().filter_map(|i| i.as_str()).collect::<Vec<_>>().join(", "))
                }
                other => Some(other.to_string()),
            },
        })
    }
}

impl StatusKind {
    /// Every state, in the order of the enum.
    pub const ALL: [StatusKind; 21] = [
        StatusKind::Idle,
        StatusKind::ProcessingUserMessage,
        StatusKind::ResolvingFileReferences,
        StatusKind::EnhancingSystemPrompt,
        StatusKind::ReadingImages,
        StatusKind::PreparingLlmRequest,
        StatusKind::ConnectingToLlm,
        StatusKind::AwaitingLlmFirstChunk,
        StatusKind::StreamingLlmResponse,
        StatusKind::ProcessingLlmResponse,
        StatusKind::RetryingLlmRequest,
        StatusKind::ParsingToolCalls,
        StatusKind::AwaitingToolApproval,
        StatusKind::ExecutingTool,
        StatusKind::CollectingToolResults,
        StatusKind::ProcessingToolResults,
        StatusKind::ToolAutoLoop,
        StatusKind::Summarizing,
        StatusKind::AwaitingSubAgents,
        StatusKind::Cancelling,
        StatusKind::Failed,
    ];

    /// The one wording of each state, for every client: `{field}` is the
    /// state's field (numbers grouped by thousands, lists joined with
    /// ", "), and `{secs}` the seconds until a retry. The UI gets this
    /// table in the generated TypeScript and fills it the same way.
    pub fn wording(self) -> &'static str {
        use StatusKind as K;
        match self {
            K::Idle => "Idle",
            K::ProcessingUserMessage => "Processing message…",
            K::ResolvingFileReferences => "Resolving file references…",
            K::EnhancingSystemPrompt => "Preparing system prompt…",
            K::ReadingImages => "Reading images ({done}/{total} done)",
            K::PreparingLlmRequest => "Preparing request…",
            K::ConnectingToLlm => "Connecting…",
            K::AwaitingLlmFirstChunk => "Waiting for the first token…",
            K::StreamingLlmResponse => "Streaming ({chunks} chunks, {chars} chars)",
            K::ProcessingLlmResponse => "Processing response…",
            K::RetryingLlmRequest => "Retrying in {secs} s ({attempt}/{max})",
            K::ParsingToolCalls => "Parsing tool calls…",
            K::AwaitingToolApproval => "Awaiting approval: {tool_names}",
            K::ExecutingTool => "Executing tool {index}/{total}: {tool_name}",
            K::CollectingToolResults => "Collecting tool results…",
            K::ProcessingToolResults => "Processing tool results…",
            K::ToolAutoLoop => "Auto-processing (round {depth}, {tools_executed} tools executed)",
            K::Summarizing => "Summarising older messages…",
            K::AwaitingSubAgents => "Waiting for sub-agents ({done}/{total} done)",
            K::Cancelling => "Cancelling…",
            K::Failed => "Failed: {message}",
        }
    }
}

/// `template` with each `{key}` replaced by `value(key)` (left as is when
/// there is none).
fn fill(template: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else { break };
        let key = &rest[open + 1..open + close];
        match value(key) {
            Some(v) => out.push_str(&v),
            None => out.push_str(&rest[open..=open + close]),
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// 1234567 → "1,234,567", as the UI's `toLocaleString("en-US")` writes it.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
