//! The wire types Braid's backend and UI share: identifiers, messages, the
//! context state, commands in and events out, and error codes.
//!
//! Everything here is plain data with serde and generated TypeScript
//! (`ui/src/generated/protocol.ts`, see [`typescript`]). No I/O, no tokio, no
//! behaviour beyond small accessors: validation, migration and the state
//! machine live in `braid-core`, which uses these types as its vocabulary so
//! that the UI and the core can never drift apart.

pub mod breakdown;
pub mod checkpoint;
pub mod codebase;
pub mod codes;
pub mod command;
pub mod context;
pub mod error;
pub mod event;
pub mod files;
pub mod generation;
pub mod hub;
pub mod ids;
pub mod local;
pub mod mcp;
pub mod merge;
pub mod message;
pub mod meta;
pub mod payload;
pub mod search;
pub mod sent;
pub mod settings;
pub mod status;
pub mod subagents;
pub mod team;
pub mod tools;
pub mod typescript;
pub mod workflow;

pub use breakdown::{
    BreakdownAction, BreakdownCategory, BreakdownItem, BreakdownPart, CompactScope, ContextBreakdown, SummaryPreview,
};
pub use checkpoint::{
    ChangeAuthor, ChangeCount, ChangeHunk, ChangedFile, Checkpoint, CheckpointStorage, ContentHash, FileChange,
    FileDelta, FileKind, FileVersion, LineCount, RestoreTarget, RewindAction, RewindFile, RewindOutcome, RewindPreview,
    TurnChangeCount, TurnChanges, UndoSelection,
};
pub use codebase::{CodebaseIndex, FileExcerpt, IndexState};
pub use codes::{FailureCode, NoticeCode};
pub use command::{
    ApprovalDecision, BranchLabel, Command, ContextSnapshot, ContextSummary, ContextUsage, ImageAttachment, ImageData,
    NewMessage, SendReceipt,
};
pub use context::{branch_label, Draft, ExportFormat, ExportedFile, MessageVersion, MessageVersions, QueueChange};
pub use error::{ErrorCode, WireError};
pub use event::{
    BraidEvent, ContentDelta, ContentFinal, ContextUpdate, MessageChange, MessageLifecycle, Notice, QueuedPreview,
    UpdateMetadata,
};
pub use files::{FileInPlay, FileState, OverwriteReason, OverwriteRisk, WritePreview};
pub use generation::{GenerationSettings, ToolUse, MAX_TEMPERATURE};
pub use hub::{
    Download, DownloadState, DownloadsView, HubFile, HubModel, HubRepo, MachineShape, Recommendations, Recommended,
};
pub use ids::{BranchId, CallId, ContextId, MessageId, RequestId, Timestamp};
pub use local::{FoundModel, LocalModel, LocalModelSettings, LocalModelsView, MemoryEstimate, MemoryFit};
pub use mcp::{HeldTool, McpServerStatus, McpSettings, McpState};
pub use merge::{
    ConflictChoice, ConflictKind, FileChoice, FileConflict, FileConflictKind, FileTake, GraphBranch, GraphRow,
    GraphView, MergeConflict, MergeDependency, MergeFile, MergeItem, MergeItemFate, MergeOptions, MergePreview,
    MergeRecord, MergeStrategy, MessageStamp, MissingDependencies, ModelBefore, PromptBefore, Resolution,
};
pub use message::{
    AnswerSpeed, Approval, ContentPart, ControlKind, FileRefStatus, ImageMode, ImageSource, LineRange, Message,
    MessageKind, MessageMeta, MessageType, Role, StoredImage, TokenCount, TokenEncoding, TokenUsage, ToolCall,
    ToolResultStatus, WithheldOutput, SCHEMA_VERSION,
};
pub use payload::{Payload, PayloadReceipt, SendMessageRequest};
pub use search::{SearchHit, SnippetPart};
pub use sent::{PromptPart, SentMessage, SentPart, SentRequest, SentTool};
pub use settings::{
    ConversationDefaults, EffectiveModel, KeyChange, KeyLocation, LocalServer, ModelChoice, ModelSummary,
    ProviderInput, ProviderKind, ProviderView, SettingsView, StandingInstructions, MAX_STANDING_INSTRUCTIONS,
};
pub use status::{ContextStatus, StatusKind};
pub use subagents::{
    ChildOf, ChildOutcome, ChildReport, ChildSummary, ChildWorkspace, IsolationKind, SubAgentLimits, SubAgentView,
    SubAgentsView, SubTask, MAX_SUB_TASKS, SPAWN_AGENTS, SUBMIT_ERROR, SUBMIT_RESULT,
};
pub use team::{
    AgentType, MemberCheck, Team, TeamAction, TeamMember, TeamRoute, TeamView, DEFAULT_TEAM_BUDGET,
    DEFAULT_TEAM_WINDOW, MAX_AGENT_TURNS, MAX_QUEUED_TURNS, TEAM_TASK_LIMIT,
};
pub use tools::{
    check_tool_name, AgentMode, AgentRole, BlockedCommand, ContextStrategy, Permission, PromptedCall, Sandbox,
    SandboxLevel, SandboxPaths, SecretUse, ToolApprovalPolicy, ToolSandbox, ToolSettings, ToolSource, ToolSpec,
    MAX_TOOL_NAME,
};
pub use workflow::{Workflow, WorkflowList, WorkflowOutcome, WorkflowParameter, WorkflowStatus};
