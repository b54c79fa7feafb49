//! The context state (DESIGN.md §3) as the UI sees it. States carry their
//! progress; there are no `is_streaming`-style flags anywhere.

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
    EnhancingSystemPrompt,
    OptimizingContext,
    /// Images are read (vision analysis or OCR); `done` of `total`.
    ReadingImages {
        done: u32,
        total: u32,
    },
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
        pending_requests: Vec<String>,
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
        error_code: String,
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
    OptimizingContext,
    ReadingImages,
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
            S::OptimizingContext => StatusKind::OptimizingContext,
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

    /// The state in words, with its numbers, as a state line shows it.
    pub fn describe(&self, now: Timestamp) -> String {
        use ContextStatus as S;
        match self {
            S::Idle => "Idle".into(),
            S::ProcessingUserMessage => "Processing message…".into(),
            S::ResolvingFileReferences => "Resolving file references…".into(),
            S::EnhancingSystemPrompt => "Preparing system prompt…".into(),
            S::OptimizingContext => "Optimising context…".into(),
            S::ReadingImages { done, total } => format!("Reading images ({done}/{total} done)"),
            S::PreparingLlmRequest => "Preparing request…".into(),
            S::ConnectingToLlm => "Connecting…".into(),
            S::AwaitingLlmFirstChunk => "Waiting for the first token…".into(),
            S::StreamingLlmResponse { chunks, chars } => format!("Streaming ({chunks} chunks, {chars} chars)"),
            S::ProcessingLlmResponse => "Processing response…".into(),
            S::RetryingLlmRequest { attempt, max, retry_at } => {
                let secs = now.ms_until(*retry_at).div_ceil(1000);
                format!("Retrying in {secs} s ({attempt}/{max})")
            }
            S::ParsingToolCalls => "Parsing tool calls…".into(),
            S::AwaitingToolApproval { tool_names, .. } => format!("Awaiting approval: {}", tool_names.join(", ")),
            S::ExecutingTool { tool_name, index, total, .. } => format!("Executing tool {index}/{total}: {tool_name}"),
            S::CollectingToolResults => "Collecting tool results…".into(),
            S::ProcessingToolResults => "Processing tool results…".into(),
            S::ToolAutoLoop { depth, tools_executed } => {
                format!("Auto-processing (round {depth}, {tools_executed} tools executed)")
            }
            S::Summarizing => "Summarising older messages…".into(),
            S::AwaitingSubAgents { done, total } => format!("Waiting for sub-agents ({done}/{total} done)"),
            S::Cancelling => "Cancelling…".into(),
            S::Failed { message, .. } => format!("Failed: {message}"),
        }
    }
}
