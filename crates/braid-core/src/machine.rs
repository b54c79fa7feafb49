//! The context state machine (DESIGN.md §3): one pure function,
//! [`transition`], from a state, an event and the current time to the next
//! state and the effects the runtime must carry out. Persistence effects
//! always come first in the list: state is persisted before effects run.
//!
//! The function takes the state by reference and returns a new one, as the
//! design says; the state is small (a few counters, the queue, the tool
//! round), so the clone is cheap. Streamed text never enters the state: the
//! provider layer assembles the answer and hands it over complete.

mod backoff;
mod bookkeeping;
mod branches;
mod breakdown;
mod compact;
mod continuation;
mod control;
mod decisions;
mod effects;
mod events;
mod input;
mod merge;
mod parallel;
mod prepare;
mod request;
mod restore;
mod results;
mod settings;
mod stages;
mod step;
mod subagents;
mod team;
mod tools;
mod workflow;

use braid_protocol::{
    CallId, ContextId, ContextStatus, ContextStrategy, GenerationSettings, ImageAttachment, Message, MessageId,
    MessageType, RequestId, StatusKind, ToolCall, ToolResultStatus, ToolSettings, ToolSpec,
};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

pub use backoff::retry_delay_ms;
pub use bookkeeping::{Bookkeeping, TurnFacts};
pub use breakdown::{breakdown, look, recount, Looked, PlannedRequest};
pub use compact::{Compaction, MAX_INSTRUCTIONS};
pub use effects::Effect;
pub use events::{Event, Reply};
pub use settings::{apply_defaults, check_defaults, check_fitting, tool_use};
pub use step::transition;
pub(crate) use step::{stored_change, transition_in_place};
pub use tools::tool_name;

/// Limits of the machine. Stored with the context.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MachineConfig {
    /// Retries after the first attempt for retryable failures.
    pub max_retries: u32,
    pub backoff_base_ms: u64,
    pub backoff_cap_ms: u64,
    /// Automatic tool rounds per user message before the loop stops and
    /// the user is asked to continue.
    pub max_loop_depth: u32,
    /// Approval policy, mode, role, per-call timeout.
    #[serde(default)]
    pub tools: ToolSettings,
    /// Past this share of the window (percent), older messages are
    /// summarised before the request is sent; 0: only when the user asks.
    #[serde(default = "default_summarize_at")]
    pub summarize_at_percent: u8,
    /// How the conversation is fitted into the model's window.
    #[serde(default)]
    pub context: ContextStrategy,
    /// Tools on a normal turn, temperature, longest answer.
    #[serde(default)]
    pub generation: GenerationSettings,
    /// References and images the user keeps in what is sent: they go
    /// ahead of older messages while they fit.
    #[serde(default)]
    pub kept: std::collections::BTreeSet<MessageId>,
    /// Tool groups the user stopped offering here ([`crate::tool_need::ToolGroup::key`]).
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub dropped_tools: std::collections::BTreeSet<String>,
    /// Messages the user left out of what is sent (still stored).
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub left_out: std::collections::BTreeSet<MessageId>,
    /// A team conversation's members and task (DESIGN.md §8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<braid_protocol::Team>,
    /// A sub-agent's place: its parent and task. Its tools end with the
    /// submit tools, and it cannot start sub-agents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child: Option<braid_protocol::ChildOf>,
}

impl Default for MachineConfig {
    fn default() -> MachineConfig {
        MachineConfig {
            max_retries: 3,
            backoff_base_ms: 1_000,
            backoff_cap_ms: 30_000,
            max_loop_depth: 10,
            tools: ToolSettings::default(),
            summarize_at_percent: default_summarize_at(),
            context: ContextStrategy::default(),
            generation: GenerationSettings::default(),
            kept: std::collections::BTreeSet::new(),
            dropped_tools: std::collections::BTreeSet::new(),
            left_out: std::collections::BTreeSet::new(),
            team: None,
            child: None,
        }
    }
}

fn first_branch() -> u64 {
    1
}

fn default_summarize_at() -> u8 {
    92
}

/// A message waiting for its turn, or in the processing pipeline. Its body
/// is kept so that a crash at that moment loses nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueuedMessage {
    pub id: MessageId,
    pub body: MessageType,
    /// The tool the model must call in its first answer to this message.
    #[serde(default)]
    pub force_tool: Option<String>,
    /// Images sent with it; they are read in the pipeline and stored as
    /// Image messages just before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImageAttachment>,
}

/// The LLM request in flight (or waiting to be retried).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InFlight {
    pub id: RequestId,
    /// 1 for the first send, +1 per retry.
    pub attempt: u32,
    /// The id the answer will get; deltas carry it.
    pub response_id: MessageId,
    /// Deltas emitted so far.
    pub sequence: u64,
    /// The user asked to stop; the partial answer is kept.
    pub interrupted: bool,
    /// The tool this request makes the model call (first request of a turn
    /// whose message asked for it; kept across its retries).
    #[serde(default)]
    pub force_tool: Option<String>,
    /// The model said the context was too long: this attempt sends a
    /// tighter selection of the conversation.
    #[serde(default)]
    pub trimmed: bool,
    /// This request continues that answer, cut at the output limit: its
    /// text is joined to it, and it stays one answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continues: Option<Box<Message>>,
    /// Automatic continuations of the answer so far.
    #[serde(default)]
    pub continued: u32,
    /// When this attempt went out, and when its first token came: the
    /// answer's speed (`MessageMeta::speed`).
    #[serde(default)]
    pub sent_at: Option<braid_protocol::Timestamp>,
    #[serde(default)]
    pub first_token_at: Option<braid_protocol::Timestamp>,
    /// When the clients were last told the stream's counts (see
    /// `PROGRESS_EVERY_MS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress_at: Option<braid_protocol::Timestamp>,
}

/// The tool calls of one model turn, run in order: one at a time, but a
/// run of reads (tools that only read, approved) together, their results
/// still written in the model's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolRound {
    /// The ToolRequest message, kept so approval changes can be rewritten.
    pub request: Message,
    /// Index of the next call to run (or the running one).
    pub next: usize,
    pub running: Option<CallId>,
    /// Per call: why it must not run (invalid arguments), if so.
    pub rejected: Vec<Option<String>>,
    pub interrupted: bool,
    /// The model repeated a call: the loop stops when the round ends.
    #[serde(default)]
    pub circular: bool,
    /// Images of the results so far, added after the last result (a
    /// user message among a round's results would part them from their
    /// request).
    #[serde(default)]
    pub images: Vec<MessageType>,
    /// The sandbox stopped the call at `next`: its result, held while the
    /// user decides whether it runs again outside the sandbox.
    #[serde(default)]
    pub blocked: Option<ToolOutcome>,
    /// Results a client gave for calls of the round, written in their turn.
    #[serde(default)]
    pub supplied: Vec<(CallId, ToolOutcome)>,
    /// Reads started beside `running`, in order, each written in its turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alongside: Vec<CallId>,
    /// Results of reads that finished before their turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub early: Vec<(CallId, ToolOutcome)>,
}

impl ToolRound {
    pub fn calls(&self) -> &[ToolCall] {
        match &self.request.body {
            MessageType::ToolRequest { calls, .. } => calls,
            _ => &[],
        }
    }
}

/// Progress of the automatic tool loop for the current user message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopProgress {
    pub depth: u32,
    pub tools_executed: u32,
    /// `name(arguments)` of every call the model made in this turn, to
    /// notice a model that repeats itself.
    #[serde(default)]
    pub calls: Vec<String>,
}

impl LoopProgress {
    pub fn state(&self) -> crate::approval::LoopState {
        crate::approval::LoopState { depth: self.depth, tools_executed: self.tools_executed }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContextState {
    pub context_id: ContextId,
    pub status: ContextStatus,
    pub queue: VecDeque<QueuedMessage>,
    pub pending: Option<QueuedMessage>,
    pub request: Option<InFlight>,
    /// The tool the next request must make the model call.
    #[serde(default)]
    pub force_tool: Option<String>,
    pub round: Option<ToolRound>,
    /// The Image message being read again (state ReadingImages, no
    /// pending message).
    #[serde(default)]
    pub rereading: Option<MessageId>,
    pub auto_loop: LoopProgress,
    pub next_message_id: u64,
    pub next_request_id: u64,
    /// The next branch id `b<n>`: the machine hands out every id.
    #[serde(default = "first_branch")]
    pub next_branch_id: u64,
    pub config: MachineConfig,
    /// Token counts, the window's use and what was said about files.
    #[serde(default)]
    pub book: Bookkeeping,
    /// The tools this context may offer; every call is judged against it.
    /// The runtime sends it when the context loads and whenever a tool is
    /// registered (`CatalogueChanged`). Shared: copying the state never
    /// copies the catalogue. Not stored: the runtime's is the one in force
    /// when a context loads, and the schemas, written with every stored
    /// step, were most of the writes on a message's way to the model
    /// (rows from before still read: the field is ignored).
    #[serde(skip)]
    pub catalogue: std::sync::Arc<[ToolSpec]>,
    /// A team chain's turns: who answers, who follows.
    #[serde(default)]
    pub route: braid_protocol::TeamRoute,
    /// The running `spawn_agents` call's children and their reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<braid_protocol::SubAgentsView>,
    /// A sub-agent's progress towards its limits.
    #[serde(default)]
    pub child: ChildRun,
}

/// How far a sub-agent got: its model turns, whether it had its grace
/// turn, whether it ended, and the tokens it used.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChildRun {
    pub turns: u32,
    pub grace: bool,
    pub ended: bool,
    pub tokens: u64,
    /// How it ended, as it knows it (its parent may know more: a limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<braid_protocol::ChildOutcome>,
    /// What came back from its own copy of the workspace, after its end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returned: Option<braid_protocol::ChildWorkspace>,
}

impl ContextState {
    pub fn new(context_id: ContextId) -> ContextState {
        ContextState {
            context_id,
            status: ContextStatus::Idle,
            queue: VecDeque::new(),
            pending: None,
            request: None,
            force_tool: None,
            round: None,
            rereading: None,
            auto_loop: LoopProgress::default(),
            next_message_id: 1,
            next_request_id: 1,
            next_branch_id: 1,
            config: MachineConfig::default(),
            book: Bookkeeping::default(),
            catalogue: std::sync::Arc::default(),
            route: braid_protocol::TeamRoute::default(),
            agents: None,
            child: ChildRun::default(),
        }
    }
}

/// Pipeline stages that show as their own state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PipelineStage {
    ProcessingUserMessage,
    ResolvingFileReferences,
    ReadingImages { done: u32, total: u32 },
}

impl PipelineStage {
    pub fn status(self) -> ContextStatus {
        match self {
            PipelineStage::ProcessingUserMessage => ContextStatus::ProcessingUserMessage,
            PipelineStage::ResolvingFileReferences => ContextStatus::ResolvingFileReferences,
            PipelineStage::ReadingImages { done, total } => ContextStatus::ReadingImages { done, total },
        }
    }
}

/// The outcome of one tool call, as the runtime reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolOutcome {
    pub status: ToolResultStatus,
    pub output: String,
    pub error: Option<String>,
    pub recoverable: bool,
    pub duration_ms: u64,
    /// A tool that wrote a file: the hash of the content it left there
    /// (the freshness record's hash), so merges compare what the files
    /// hold rather than how each branch got there.
    #[serde(default)]
    pub written: Option<u64>,
    /// The command failed because the sandbox refused it (a write outside,
    /// the network), in words: the user may let it run again outside.
    /// (Boxed: outcomes travel in `Result`s, kept small.)
    #[serde(default)]
    pub blocked: Option<Box<String>>,
    /// Images the result came with (Image bodies, already read by vision
    /// or OCR): they follow the round's results, as other images do.
    #[serde(default)]
    pub images: Vec<MessageType>,
    /// What the runtime found of the secrets used in this conversation in
    /// the output (`None`: none used, or nothing to compare with).
    #[serde(default)]
    pub secrets: Option<Box<crate::secrets::exposure::SecretCheck>>,
}

impl ToolOutcome {
    /// A successful result with this output and nothing else.
    pub fn success(output: String) -> ToolOutcome {
        ToolOutcome {
            status: ToolResultStatus::Success,
            output,
            error: None,
            recoverable: false,
            duration_ms: 0,
            written: None,
            blocked: None,
            images: Vec::new(),
            secrets: None,
        }
    }

    /// The call's result as history keeps it (the images and the written
    /// hash travel separately).
    pub fn result_body(&self, call_id: CallId, finished_at: braid_protocol::Timestamp) -> MessageType {
        MessageType::ToolResult {
            request_id: call_id,
            status: self.status,
            output: self.output.clone(),
            error: self.error.clone(),
            recoverable: self.recoverable,
            duration_ms: self.duration_ms,
            finished_at,
        }
    }
}

/// States in which an LLM request is in flight or about to be.
pub fn is_request_phase(kind: StatusKind) -> bool {
    matches!(
        kind,
        StatusKind::EnhancingSystemPrompt
            | StatusKind::PreparingLlmRequest
            | StatusKind::Summarizing
            | StatusKind::ToolAutoLoop
            | StatusKind::ConnectingToLlm
            | StatusKind::AwaitingLlmFirstChunk
            | StatusKind::StreamingLlmResponse
            | StatusKind::ProcessingLlmResponse
    )
}

/// States in which the user's message is in the processing pipeline.
pub fn is_pipeline_phase(kind: StatusKind) -> bool {
    matches!(kind, StatusKind::ProcessingUserMessage | StatusKind::ResolvingFileReferences | StatusKind::ReadingImages)
}

/// States in which a tool round is open.
pub fn is_tool_phase(kind: StatusKind) -> bool {
    matches!(
        kind,
        StatusKind::ParsingToolCalls
            | StatusKind::AwaitingToolApproval
            | StatusKind::ExecutingTool
            | StatusKind::CollectingToolResults
            | StatusKind::ProcessingToolResults
            | StatusKind::AwaitingSubAgents
            | StatusKind::Cancelling
    )
}
