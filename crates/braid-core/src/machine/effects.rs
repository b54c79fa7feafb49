//! Every effect the runtime carries out, in the order a step lists them:
//! what is stored first, then what runs.

use crate::conversation::{Branch, BranchDeletion};
use crate::llm::ToolChoice;
use braid_protocol::{
    BraidEvent, BranchId, CallId, ImageAttachment, Message, MessageId, MessageType, RequestId, Timestamp, ToolCall,
    ToolSpec, WireError,
};

use super::Reply;

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
    SetBranchFolder {
        branch: BranchId,
        folder: Option<String>,
    },
    /// The branch now holds these messages, in this order (a merge or its
    /// undo; every id is in the pool).
    SetBranchMessages {
        branch: BranchId,
        ids: Vec<MessageId>,
    },
    /// Keep this checkpoint (what changed in the workspace, for rewinds).
    RecordCheckpoint(Box<braid_protocol::Checkpoint>),
    /// Save the conversation's descriptive fields as they are now
    /// (written after the state, so a pin keeps the change time).
    SaveMeta(Box<crate::context::ContextMeta>),
    /// Answer the command.
    Reply(Result<Reply, WireError>),
    /// Run the processors on the message; answer `PipelineProcessed`.
    RunPipeline(Message),
    /// Resolve the message's `@file` mentions; answer `ReferencesResolved`.
    ResolveReferences(Message),
    /// Read what the message brings (the MCP resources it names or that
    /// went stale, then its images) and answer `PipelineSucceeded` with
    /// these attachments and what was read.
    ReadAttachments {
        message: Message,
        attachments: Vec<MessageType>,
        images: Vec<ImageAttachment>,
    },
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
        /// What the user asked the summary to keep.
        instructions: Option<String>,
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
                | Effect::SetBranchFolder { .. }
                | Effect::SaveMeta(_)
                | Effect::RecordCheckpoint(_)
        )
    }
}
