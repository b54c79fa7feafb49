//! The machine's vocabulary: every event that can happen to a context,
//! the reply to a command, and every effect the runtime carries out.

use super::{PipelineStage, ToolOutcome};
use crate::conversation::{Branch, BranchDeletion};
use crate::fit::{FileChange, FileChangeKind, PreparedRequest};
use crate::llm::{LlmFailure, LlmResponse, ToolChoice};
use crate::merge::{MergeApply, MergeUndo};
use braid_protocol::{
    AgentMode, ApprovalDecision, BraidEvent, BranchId, CallId, ContextStrategy, GenerationSettings, ImageAttachment,
    Message, MessageId, MessageType, RequestId, SendReceipt, Timestamp, ToolApprovalPolicy, ToolCall, ToolSpec,
    WireError,
};

/// Everything that can happen to a context.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// From the user. Rejected with `agent_busy` while busy unless queued.
    UserMessage {
        body: MessageType,
        queue_if_busy: bool,
        /// Makes the model call this tool first (`/tool name …`).
        force_tool: Option<String>,
        images: Vec<ImageAttachment>,
    },
    /// From the user, while idle or failed: read this Image message (from
    /// the conversation) again.
    RereadImage {
        message: Message,
    },
    /// The image read again, with its new analysis, text or error.
    ImageReread {
        message: Message,
    },
    Unqueue {
        message_id: MessageId,
    },
    PipelineStage {
        message_id: MessageId,
        stage: PipelineStage,
    },
    /// The pipeline's output, ready to enter the pool.
    PipelineSucceeded {
        message: Message,
        /// Messages the pipeline made from it (resolved `@file`
        /// references), stored just before it.
        attachments: Vec<MessageType>,
    },
    PipelineFailed {
        message_id: MessageId,
        error: String,
    },
    /// The runtime prepared the request (`StartLlmRequest`): the facts the
    /// machine fits it into the window with.
    RequestPrepared {
        request_id: RequestId,
        prepared: Box<PreparedRequest>,
    },
    /// The tools registered now (at load, and after each registration).
    CatalogueChanged {
        tools: Vec<ToolSpec>,
    },
    /// A file in play was looked at again (the watcher saw it move):
    /// `None` when it is as the agent last saw it.
    FileChecked {
        path: String,
        change: Option<FileChangeKind>,
    },
    /// Files in play found changed when the conversation was opened: they
    /// changed while Braid was closed.
    FilesChangedWhileClosed {
        changes: Vec<FileChange>,
    },
    /// The runtime began sending the request.
    LlmRequestStarted {
        request_id: RequestId,
    },
    /// Response headers arrived.
    LlmConnected {
        request_id: RequestId,
    },
    LlmDelta {
        request_id: RequestId,
        text: String,
    },
    LlmCompleted {
        request_id: RequestId,
        response: LlmResponse,
    },
    LlmFailed {
        request_id: RequestId,
        failure: LlmFailure,
    },
    RetryTimerFired {
        request_id: RequestId,
    },
    ToolDecision {
        call_id: CallId,
        decision: ApprovalDecision,
        /// With a denial: why, told to the model.
        reason: Option<String>,
    },
    /// The model's summary of `replaces`.
    SummaryReady {
        request_id: RequestId,
        text: String,
        replaces: Vec<MessageId>,
    },
    /// Summarising failed: the request goes on without (older messages are
    /// left out instead) and the user is told.
    SummaryFailed {
        request_id: RequestId,
        error: String,
    },
    /// How the conversation is fitted into the window from the next
    /// request on; `summarize_at_percent` 50..=100 when given.
    SetContextStrategy {
        strategy: ContextStrategy,
        summarize_at_percent: Option<u8>,
    },
    /// Keep a reference or image in what is sent, ahead of older
    /// messages, while it fits (or no longer); the runtime checks that the
    /// message is one.
    KeepInContext {
        message: MessageId,
        keep: bool,
    },
    /// Tools on a normal turn, temperature, longest answer; from the next
    /// request on.
    SetGeneration {
        settings: GenerationSettings,
    },
    /// Only while idle; recorded as a ModeChange message.
    SetMode {
        mode: AgentMode,
    },
    /// Only while idle: the conversation works in another folder from
    /// now; `confirm_reads` when that folder is a broad one (home).
    SetWorkspace {
        confirm_reads: bool,
    },
    SetToolPolicy {
        policy: ToolApprovalPolicy,
        always_ask: Option<Vec<String>>,
    },
    /// The runtime sent a workflow's prompt as `message`: its card follows.
    WorkflowStarted {
        name: String,
        arguments: std::collections::BTreeMap<String, String>,
        message: MessageId,
    },
    /// The client answers a call awaiting approval with its own result:
    /// the call does not run.
    ToolResultSupplied {
        call_id: CallId,
        outcome: ToolOutcome,
    },
    /// Assistant or Planner, from the next request on.
    SetRole {
        role: braid_protocol::AgentRole,
    },
    /// What `run_command` may touch, from the next command on.
    SetSandbox {
        sandbox: braid_protocol::Sandbox,
    },
    ToolFinished {
        call_id: CallId,
        outcome: ToolOutcome,
    },
    /// Processed before anything else: stops at once, keeps no partial answer.
    Cancel,
    /// The running step finishes, nothing further starts, partial results stay.
    Interrupt,
    /// From Failed (or Idle, to continue after a stop): send again.
    Retry,
    SwitchBranch {
        from: BranchId,
        to: BranchId,
    },
    /// From the user: fork as `Conversation::fork` drafted it (id empty).
    /// Allowed in any state: the active branch is not touched. With
    /// `switch`, the new branch becomes active (only while idle).
    CreateBranch {
        draft: Box<Branch>,
        switch: bool,
    },
    /// The runtime checked the branch exists.
    RenameBranch {
        branch: BranchId,
        name: String,
    },
    /// `None` goes back to the conversation's prompt.
    SetBranchPrompt {
        branch: BranchId,
        system_prompt: Option<String>,
    },
    /// What deleting it takes, as the conversation has it.
    DeleteBranch {
        deletion: Box<BranchDeletion>,
    },
    /// The runtime checked the branch and the provider exist; `None`: the
    /// conversation's model again.
    SetBranchModel {
        branch: BranchId,
        model: Option<braid_protocol::ModelChoice>,
    },
    /// A merge into the active branch, as `merge::plan` computed it from
    /// the conversation (only while idle).
    Merge {
        apply: Box<MergeApply>,
    },
    /// Take a merge back, as `merge::undo_plan` computed it.
    UndoMerge {
        undo: Box<MergeUndo>,
    },
    /// Makes the conversation a team conversation (or not), while idle;
    /// the runtime checked its CLI members can run.
    SetTeam {
        team: Option<Box<braid_protocol::Team>>,
    },
    /// The user steers a team chain.
    SteerTeam {
        action: braid_protocol::TeamAction,
    },
    /// The runtime created the conversation of task `index` of the
    /// running `spawn_agents` call (`SpawnAgents`).
    SubAgentStarted {
        call_id: CallId,
        index: u32,
        context_id: braid_protocol::ContextId,
    },
    /// Task `index` ended: submitted, failed, past a limit, or stopped.
    SubAgentFinished {
        call_id: CallId,
        index: u32,
        report: braid_protocol::ChildReport,
    },
}

impl Event {
    pub fn name(&self) -> &'static str {
        match self {
            Event::UserMessage { .. } => "user_message",
            Event::Unqueue { .. } => "unqueue",
            Event::RereadImage { .. } => "reread_image",
            Event::ImageReread { .. } => "image_reread",
            Event::PipelineStage { .. } => "pipeline_stage",
            Event::PipelineSucceeded { .. } => "pipeline_succeeded",
            Event::PipelineFailed { .. } => "pipeline_failed",
            Event::RequestPrepared { .. } => "request_prepared",
            Event::FileChecked { .. } => "file_checked",
            Event::FilesChangedWhileClosed { .. } => "files_changed_while_closed",
            Event::CatalogueChanged { .. } => "catalogue_changed",
            Event::LlmRequestStarted { .. } => "llm_request_started",
            Event::LlmConnected { .. } => "llm_connected",
            Event::LlmDelta { .. } => "llm_delta",
            Event::LlmCompleted { .. } => "llm_completed",
            Event::LlmFailed { .. } => "llm_failed",
            Event::RetryTimerFired { .. } => "retry_timer_fired",
            Event::ToolDecision { .. } => "tool_decision",
            Event::SetMode { .. } => "set_mode",
            Event::SetWorkspace { .. } => "set_workspace",
            Event::SetContextStrategy { .. } => "set_context_strategy",
            Event::KeepInContext { .. } => "keep_in_context",
            Event::SetGeneration { .. } => "set_generation",
            Event::SummaryReady { .. } => "summary_ready",
            Event::SummaryFailed { .. } => "summary_failed",
            Event::SetToolPolicy { .. } => "set_tool_policy",
            Event::SetSandbox { .. } => "set_sandbox",
            Event::SetRole { .. } => "set_role",
            Event::WorkflowStarted { .. } => "workflow_started",
            Event::ToolResultSupplied { .. } => "tool_result_supplied",
            Event::ToolFinished { .. } => "tool_finished",
            Event::Cancel => "cancel",
            Event::Interrupt => "interrupt",
            Event::Retry => "retry",
            Event::SwitchBranch { .. } => "switch_branch",
            Event::CreateBranch { .. } => "create_branch",
            Event::RenameBranch { .. } => "rename_branch",
            Event::SetBranchPrompt { .. } => "set_branch_prompt",
            Event::DeleteBranch { .. } => "delete_branch",
            Event::SetBranchModel { .. } => "set_branch_model",
            Event::Merge { .. } => "merge",
            Event::UndoMerge { .. } => "undo_merge",
            Event::SetTeam { .. } => "set_team",
            Event::SteerTeam { .. } => "steer_team",
            Event::SubAgentStarted { .. } => "sub_agent_started",
            Event::SubAgentFinished { .. } => "sub_agent_finished",
        }
    }
}

/// The answer to the command that caused a transition.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Accepted(SendReceipt),
    /// A branch was created.
    Branch(BranchId),
    /// A message was written (the merge card).
    Message(MessageId),
    Done,
}

/// What the runtime must do. Persistence effects come first.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Save the state (status, queue, counters).
    PersistState,
    /// Add to the pool and the active branch, and save.
    AppendMessage(Message),
    /// Replace a message in the pool, and save.
    UpdateMessage(Message),
    SetActiveBranch(BranchId),
    /// Add this branch, and save it.
    CreateBranch(Box<Branch>),
    RenameBranch {
        branch: BranchId,
        name: String,
    },
    SetBranchPrompt {
        branch: BranchId,
        system_prompt: Option<String>,
    },
    /// Remove the branch and the messages only it held; re-attach its
    /// children to its parent.
    DeleteBranch(Box<BranchDeletion>),
    SetBranchModel {
        branch: BranchId,
        model: Option<braid_protocol::ModelChoice>,
    },
    /// The branch now holds these messages, in this order (a merge or its
    /// undo; every id is in the pool).
    SetBranchMessages {
        branch: BranchId,
        ids: Vec<MessageId>,
    },
    /// Save the conversation's descriptive fields as they are now
    /// (written after the state, so a pin keeps the change time).
    SaveMeta(Box<crate::context::ContextMeta>),
    /// Answer the command.
    Reply(Result<Reply, WireError>),
    RunPipeline(Message),
    /// Stops the pipeline (or the image read again) for this message.
    AbortPipeline(MessageId),
    /// Read this Image message again; the runtime answers `ImageReread`.
    RereadImage(Message),
    /// Prepare the request: resolve the model, assemble the system prompt
    /// and the tools, collect the active branch's messages and the files
    /// that changed; answer with `RequestPrepared`.
    StartLlmRequest {
        request_id: RequestId,
        response_id: MessageId,
        /// The team member that answers: its model (API members), its
        /// instruction file's text (`PreparedRequest::member_file`).
        member: Option<Box<braid_protocol::TeamMember>>,
    },
    /// Run a team member's coding CLI in the workspace with this prompt
    /// (and system text, for CLIs that take it apart); report it as an LLM
    /// request: `LlmRequestStarted`, `LlmDelta`, `LlmCompleted` or
    /// `LlmFailed`. `AbortLlmRequest` kills its process group.
    RunAgent {
        request_id: RequestId,
        member: Box<braid_protocol::TeamMember>,
        system: Option<String>,
        prompt: String,
        /// For the log: the agent type has no format of its own.
        warning: Option<String>,
    },
    /// Send the request as the machine fitted it and stream the answer.
    SendLlmRequest {
        request_id: RequestId,
        /// The system prompt part by part; sent joined by blank lines.
        system: Vec<braid_protocol::SentPart>,
        messages: Vec<Message>,
        /// The tools offered, in catalogue order.
        tools: Vec<ToolSpec>,
        /// `None`: the provider's default (only sent with tools).
        tool_choice: Option<ToolChoice>,
        max_tokens: u32,
        /// `None`: the model's default.
        temperature: Option<f64>,
    },
    /// Close the request now. With `keep_partial`, report what arrived as an
    /// `LlmCompleted` with stop reason Interrupted.
    AbortLlmRequest {
        request_id: RequestId,
        keep_partial: bool,
    },
    ScheduleRetry {
        request_id: RequestId,
        at: Timestamp,
    },
    CancelRetry {
        request_id: RequestId,
    },
    RunTool {
        call: ToolCall,
        index: u32,
        total: u32,
    },
    /// Kill the tool and its whole process tree.
    KillTool {
        call_id: CallId,
    },
    /// Run these tasks as sub-agents (the parent's policy, mode and
    /// workspace; at most the configured number at once), reporting
    /// `SubAgentStarted` and `SubAgentFinished` for each.
    SpawnAgents {
        call_id: CallId,
        tasks: Vec<braid_protocol::SubTask>,
    },
    /// Cancel every child of this call still running or waiting.
    StopSubAgents {
        call_id: CallId,
    },
    /// This sub-agent ended: tell the parent's supervisor.
    ChildEnded {
        outcome: braid_protocol::ChildOutcome,
        tokens: u64,
    },
    /// Ask the model for a summary of these messages (request `request_id`
    /// waits for it; cancelling aborts it like the request).
    Summarize {
        request_id: RequestId,
        replaces: Vec<MessageId>,
    },
    Emit(BraidEvent),
}

impl Effect {
    /// Effects that change what is stored; they run before all others.
    pub fn is_persistence(&self) -> bool {
        matches!(
            self,
            Effect::PersistState
                | Effect::AppendMessage(_)
                | Effect::UpdateMessage(_)
                | Effect::SetActiveBranch(_)
                | Effect::CreateBranch(_)
                | Effect::RenameBranch { .. }
                | Effect::SetBranchPrompt { .. }
                | Effect::DeleteBranch(_)
                | Effect::SetBranchMessages { .. }
                | Effect::SetBranchModel { .. }
                | Effect::SaveMeta(_)
        )
    }
}
