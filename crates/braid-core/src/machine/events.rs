//! The machine's vocabulary: every event that can happen to a context,
//! and the reply to a command (the effects are in `effects.rs`).

use super::{PipelineStage, ToolOutcome};
use crate::conversation::{Branch, BranchDeletion};
use crate::fit::{FileChange, FileChangeKind, PreparedRequest};
use crate::llm::{LlmFailure, LlmResponse};
use crate::merge::{MergeApply, MergeUndo};
use braid_protocol::{
    AgentMode, ApprovalDecision, BranchId, CallId, ContextStrategy, GenerationSettings, ImageAttachment, Message,
    MessageId, MessageType, RequestId, SendReceipt, ToolApprovalPolicy, ToolSpec,
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
    /// The user read a withheld tool output and lets the model have it:
    /// `message` is the result as it goes from now on (checked by
    /// `Context::message_op`).
    ReleaseOutput {
        message: Message,
    },
    /// The image read again, with its new analysis, text or error.
    ImageReread {
        message: Message,
    },
    Unqueue {
        message_id: MessageId,
    },
    EditQueued {
        message_id: MessageId,
        change: braid_protocol::QueueChange,
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
    /// The processors passed the message (`RunPipeline`);
    /// `mentions_files`: its text names files (`@path`), or it is an
    /// unresolved file reference.
    PipelineProcessed {
        message: Message,
        mentions_files: bool,
    },
    /// The message's file mentions, resolved (`ResolveReferences`): the
    /// reference messages stored before it, and the images it named.
    ReferencesResolved {
        message: Message,
        attachments: Vec<MessageType>,
        images: Vec<ImageAttachment>,
    },
    /// What a tool call or an agent's run changed in the workspace (or
    /// the user, found before it): kept with the step, for rewinds.
    CheckpointTaken(Box<braid_protocol::Checkpoint>),
    /// Files were put back (a rewind to `to`, the undo of the restore
    /// `undoes`, or an undo of changes the turn of `changes_of` made):
    /// `changes` is what the restore changed on disk.
    FilesRestored {
        to: MessageId,
        changes: Vec<braid_protocol::FileDelta>,
        kept: Vec<String>,
        undoes: Option<MessageId>,
        changes_of: Option<MessageId>,
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
    /// Continue (a `Retry` at rest after a cut or stopped answer, as
    /// `Context` reads it): the answer goes on as itself.
    ContinueAnswer {
        answer: Box<Message>,
    },
    /// Summarise `batch` (ids as sent) now, keeping what `instructions`
    /// say; with `preview` the summary waits for `ApplySummary`.
    Compact {
        batch: Vec<MessageId>,
        instructions: Option<String>,
        preview: bool,
    },
    /// The summary waiting for approval replaces its messages.
    ApplySummary {
        text: Option<String>,
    },
    DiscardSummary,
    /// A summary with its text changed (checked by `Context`).
    EditSummary {
        message: Message,
    },
    /// A summary in force is taken back (checked by `Context`).
    UndoSummary {
        summary: MessageId,
    },
    SetToolGroup {
        group: String,
        offered: bool,
    },
    LeaveOut {
        message: MessageId,
        out: bool,
    },
    /// How the conversation is fitted into the window from the next
    /// request on; `summarize_at_percent` 50..=100, or 0 (only when
    /// asked), when given.
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
    /// The runtime made (or removed) the branch's own copy of the
    /// workspace.
    SetBranchFolder {
        branch: BranchId,
        folder: Option<String>,
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
    /// A child's own copy of the workspace was merged back into its
    /// parent's folder, or kept, after the child ended.
    CopyReturned(Box<braid_protocol::ChildWorkspace>),
}

impl Event {
    pub fn name(&self) -> &'static str {
        match self {
            Event::UserMessage { .. } => "user_message",
            Event::Unqueue { .. } => "unqueue",
            Event::EditQueued { .. } => "edit_queued",
            Event::RereadImage { .. } => "reread_image",
            Event::ReleaseOutput { .. } => "release_output",
            Event::ImageReread { .. } => "image_reread",
            Event::PipelineStage { .. } => "pipeline_stage",
            Event::PipelineSucceeded { .. } => "pipeline_succeeded",
            Event::PipelineFailed { .. } => "pipeline_failed",
            Event::PipelineProcessed { .. } => "pipeline_processed",
            Event::ReferencesResolved { .. } => "references_resolved",
            Event::CheckpointTaken(_) => "checkpoint_taken",
            Event::FilesRestored { .. } => "files_restored",
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
            Event::ContinueAnswer { .. } => "continue_answer",
            Event::Compact { .. } => "compact",
            Event::ApplySummary { .. } => "apply_summary",
            Event::DiscardSummary => "discard_summary",
            Event::EditSummary { .. } => "edit_summary",
            Event::UndoSummary { .. } => "undo_summary",
            Event::SetToolGroup { .. } => "set_tool_group",
            Event::LeaveOut { .. } => "leave_out",
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
            Event::SetBranchFolder { .. } => "set_branch_folder",
            Event::Merge { .. } => "merge",
            Event::UndoMerge { .. } => "undo_merge",
            Event::SetTeam { .. } => "set_team",
            Event::SteerTeam { .. } => "steer_team",
            Event::SubAgentStarted { .. } => "sub_agent_started",
            Event::SubAgentFinished { .. } => "sub_agent_finished",
            Event::CopyReturned(_) => "copy_returned",
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
