//! Generates `ui/src/generated/protocol.ts` from the Rust types, so the UI
//! can never disagree with the backend. A test fails when the committed file
//! is stale; `make generate` (or `BRAID_UPDATE_TS=1 cargo test -p
//! braid-protocol`) rewrites it.

use crate::command::{BranchLabel, BranchSummary, ContextUsage, SendReceipt};
use crate::files::{FileInPlay, FileState, OverwriteReason, OverwriteRisk, WritePreview};
use crate::generation::{GenerationSettings, ToolUse};
use crate::search::{SearchHit, SnippetPart};
use crate::settings::{
    EffectiveModel, KeyChange, KeyLocation, LocalServer, ModelChoice, ModelSummary, ProviderInput, ProviderKind,
    ProviderView, SettingsView,
};
use crate::tools::{
    AgentMode, AgentRole, ContextStrategy, Permission, ToolApprovalPolicy, ToolSettings, ToolSource, ToolSpec,
};
use crate::{
    AnswerSpeed, Approval, ApprovalDecision, BraidEvent, BranchId, CallId, Command, ContentDelta, ContentFinal,
    ContentPart, ContextId, ContextSnapshot, ContextStatus, ContextSummary, ContextUpdate, ControlKind, ErrorCode,
    FailureCode, FileRefStatus, ImageAttachment, ImageData, ImageMode, ImageSource, LineRange, Message, MessageChange,
    MessageId, MessageKind, MessageLifecycle, MessageMeta, MessageType, NewMessage, Notice, NoticeCode, QueuedPreview,
    RequestId, Role, StatusKind, StoredImage, Timestamp, TokenCount, TokenEncoding, TokenUsage, ToolCall,
    ToolResultStatus, UpdateMetadata, WireError,
};
use ts_rs::{Config, TS};

/// Path of the generated file, relative to the workspace root.
pub const GENERATED_PATH: &str = "ui/src/generated/protocol.ts";

fn decl<T: TS>(cfg: &Config, out: &mut String) {
    out.push_str("export ");
    out.push_str(&T::decl(cfg));
    out.push_str("\n\n");
}

fn wire<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Tables the UI shares with the backend rather than copying them.
fn tables(out: &mut String) {
    out.push_str("/** The wording of each state (`StatusKind::wording`); `{field}` is filled from the state. */\n");
    out.push_str("export const STATUS_WORDING: Record<StatusKind, string> = {\n");
    for kind in crate::StatusKind::ALL {
        out.push_str(&format!("  {}: {},\n", wire(&kind), wire(&kind.wording())));
    }
    out.push_str("};\n\n");
    out.push_str("/** Notices after which Continue lets the model go on (`NoticeCode::CONTINUABLE`). */\n");
    let continuable: Vec<String> = crate::NoticeCode::CONTINUABLE.iter().map(wire).collect();
    out.push_str(&format!("export const CONTINUABLE_NOTICES: NoticeCode[] = [{}];\n\n", continuable.join(", ")));
    crate::command::surface::typescript(out);
}

/// The whole generated file.
pub fn generate() -> String {
    // JSON numbers: every u64 we send (ids, times, counts) stays below 2^53.
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from("// Generated from crates/braid-protocol by `make generate`. Do not edit by hand.\n\n");
    decl::<CallId>(&cfg, &mut out);
    decl::<FailureCode>(&cfg, &mut out);
    decl::<NoticeCode>(&cfg, &mut out);
    decl::<ContextId>(&cfg, &mut out);
    decl::<MessageId>(&cfg, &mut out);
    decl::<BranchId>(&cfg, &mut out);
    decl::<RequestId>(&cfg, &mut out);
    decl::<Timestamp>(&cfg, &mut out);
    decl::<Role>(&cfg, &mut out);
    decl::<ContentPart>(&cfg, &mut out);
    decl::<ImageSource>(&cfg, &mut out);
    decl::<ImageMode>(&cfg, &mut out);
    decl::<LineRange>(&cfg, &mut out);
    decl::<FileRefStatus>(&cfg, &mut out);
    decl::<Approval>(&cfg, &mut out);
    decl::<ToolCall>(&cfg, &mut out);
    decl::<ToolResultStatus>(&cfg, &mut out);
    decl::<crate::MergeStrategy>(&cfg, &mut out);
    decl::<crate::ConflictKind>(&cfg, &mut out);
    decl::<crate::Resolution>(&cfg, &mut out);
    decl::<crate::MissingDependencies>(&cfg, &mut out);
    decl::<crate::ConflictChoice>(&cfg, &mut out);
    decl::<crate::FileTake>(&cfg, &mut out);
    decl::<crate::FileChoice>(&cfg, &mut out);
    decl::<crate::FileConflictKind>(&cfg, &mut out);
    decl::<crate::FileConflict>(&cfg, &mut out);
    decl::<crate::MergeFile>(&cfg, &mut out);
    decl::<crate::MergeOptions>(&cfg, &mut out);
    decl::<crate::MergeItemFate>(&cfg, &mut out);
    decl::<crate::MergeItem>(&cfg, &mut out);
    decl::<crate::MergeDependency>(&cfg, &mut out);
    decl::<crate::MessageStamp>(&cfg, &mut out);
    decl::<crate::MergeConflict>(&cfg, &mut out);
    decl::<crate::MergePreview>(&cfg, &mut out);
    decl::<crate::PromptBefore>(&cfg, &mut out);
    decl::<crate::ModelBefore>(&cfg, &mut out);
    decl::<crate::MergeRecord>(&cfg, &mut out);
    decl::<crate::GraphRow>(&cfg, &mut out);
    decl::<crate::GraphBranch>(&cfg, &mut out);
    decl::<crate::GraphView>(&cfg, &mut out);
    decl::<crate::RewindAction>(&cfg, &mut out);
    decl::<crate::RewindFile>(&cfg, &mut out);
    decl::<crate::RewindPreview>(&cfg, &mut out);
    decl::<crate::RewindOutcome>(&cfg, &mut out);
    decl::<crate::LineCount>(&cfg, &mut out);
    decl::<crate::ChangeCount>(&cfg, &mut out);
    decl::<crate::TurnChangeCount>(&cfg, &mut out);
    decl::<crate::FileChange>(&cfg, &mut out);
    decl::<crate::ChangeHunk>(&cfg, &mut out);
    decl::<crate::ChangedFile>(&cfg, &mut out);
    decl::<crate::TurnChanges>(&cfg, &mut out);
    decl::<crate::UndoSelection>(&cfg, &mut out);
    decl::<crate::CheckpointStorage>(&cfg, &mut out);
    decl::<ControlKind>(&cfg, &mut out);
    decl::<MessageType>(&cfg, &mut out);
    decl::<MessageKind>(&cfg, &mut out);
    decl::<TokenEncoding>(&cfg, &mut out);
    decl::<TokenCount>(&cfg, &mut out);
    decl::<TokenUsage>(&cfg, &mut out);
    decl::<AnswerSpeed>(&cfg, &mut out);
    decl::<crate::WithheldOutput>(&cfg, &mut out);
    decl::<MessageMeta>(&cfg, &mut out);
    decl::<Message>(&cfg, &mut out);
    decl::<ContextStatus>(&cfg, &mut out);
    decl::<StatusKind>(&cfg, &mut out);
    decl::<ErrorCode>(&cfg, &mut out);
    decl::<WireError>(&cfg, &mut out);
    decl::<ApprovalDecision>(&cfg, &mut out);
    decl::<Permission>(&cfg, &mut out);
    decl::<ToolApprovalPolicy>(&cfg, &mut out);
    decl::<AgentMode>(&cfg, &mut out);
    decl::<AgentRole>(&cfg, &mut out);
    decl::<crate::SandboxLevel>(&cfg, &mut out);
    decl::<crate::Sandbox>(&cfg, &mut out);
    decl::<ToolSettings>(&cfg, &mut out);
    decl::<ToolSource>(&cfg, &mut out);
    decl::<crate::ToolSandbox>(&cfg, &mut out);
    decl::<crate::BlockedCommand>(&cfg, &mut out);
    decl::<crate::PromptPart>(&cfg, &mut out);
    decl::<crate::Payload>(&cfg, &mut out);
    decl::<crate::SendMessageRequest>(&cfg, &mut out);
    decl::<crate::PayloadReceipt>(&cfg, &mut out);
    decl::<crate::Workflow>(&cfg, &mut out);
    decl::<crate::WorkflowParameter>(&cfg, &mut out);
    decl::<crate::WorkflowList>(&cfg, &mut out);
    decl::<crate::WorkflowOutcome>(&cfg, &mut out);
    decl::<crate::WorkflowStatus>(&cfg, &mut out);
    decl::<crate::SentPart>(&cfg, &mut out);
    decl::<crate::SentMessage>(&cfg, &mut out);
    decl::<crate::SentTool>(&cfg, &mut out);
    decl::<crate::SentRequest>(&cfg, &mut out);
    decl::<crate::Team>(&cfg, &mut out);
    decl::<crate::TeamMember>(&cfg, &mut out);
    decl::<crate::AgentType>(&cfg, &mut out);
    decl::<crate::TeamRoute>(&cfg, &mut out);
    decl::<crate::TeamAction>(&cfg, &mut out);
    decl::<crate::MemberCheck>(&cfg, &mut out);
    decl::<crate::TeamView>(&cfg, &mut out);
    decl::<crate::SubTask>(&cfg, &mut out);
    decl::<crate::ChildOf>(&cfg, &mut out);
    decl::<crate::ChildOutcome>(&cfg, &mut out);
    decl::<crate::IsolationKind>(&cfg, &mut out);
    decl::<crate::ChildWorkspace>(&cfg, &mut out);
    decl::<crate::ChildReport>(&cfg, &mut out);
    decl::<crate::SubAgentView>(&cfg, &mut out);
    decl::<crate::SubAgentsView>(&cfg, &mut out);
    decl::<crate::ChildSummary>(&cfg, &mut out);
    decl::<crate::SubAgentLimits>(&cfg, &mut out);
    decl::<crate::CodebaseIndex>(&cfg, &mut out);
    decl::<crate::IndexState>(&cfg, &mut out);
    decl::<crate::FileExcerpt>(&cfg, &mut out);
    decl::<crate::McpState>(&cfg, &mut out);
    decl::<crate::McpServerStatus>(&cfg, &mut out);
    decl::<crate::HeldTool>(&cfg, &mut out);
    decl::<crate::McpSettings>(&cfg, &mut out);
    decl::<crate::mcp::McpResourceInfo>(&cfg, &mut out);
    decl::<crate::mcp::McpPromptInfo>(&cfg, &mut out);
    decl::<crate::mcp::McpPromptArgument>(&cfg, &mut out);
    decl::<crate::mcp::McpOrigin>(&cfg, &mut out);
    decl::<crate::mcp::McpWorkspace>(&cfg, &mut out);
    decl::<crate::mcp::McpSecret>(&cfg, &mut out);
    decl::<crate::mcp::McpResourceTemplate>(&cfg, &mut out);
    decl::<ToolSpec>(&cfg, &mut out);
    decl::<ContextStrategy>(&cfg, &mut out);
    decl::<ToolUse>(&cfg, &mut out);
    decl::<GenerationSettings>(&cfg, &mut out);
    decl::<ProviderKind>(&cfg, &mut out);
    decl::<KeyLocation>(&cfg, &mut out);
    decl::<ProviderView>(&cfg, &mut out);
    decl::<SettingsView>(&cfg, &mut out);
    decl::<KeyChange>(&cfg, &mut out);
    decl::<ProviderInput>(&cfg, &mut out);
    decl::<ModelSummary>(&cfg, &mut out);
    decl::<ModelChoice>(&cfg, &mut out);
    decl::<EffectiveModel>(&cfg, &mut out);
    decl::<LocalServer>(&cfg, &mut out);
    decl::<crate::LocalModel>(&cfg, &mut out);
    decl::<crate::FoundModel>(&cfg, &mut out);
    decl::<crate::MemoryEstimate>(&cfg, &mut out);
    decl::<crate::MemoryFit>(&cfg, &mut out);
    decl::<crate::LocalModelSettings>(&cfg, &mut out);
    decl::<crate::LocalModelsView>(&cfg, &mut out);
    decl::<crate::HubModel>(&cfg, &mut out);
    decl::<crate::HubRepo>(&cfg, &mut out);
    decl::<crate::HubFile>(&cfg, &mut out);
    decl::<crate::MachineShape>(&cfg, &mut out);
    decl::<crate::Recommended>(&cfg, &mut out);
    decl::<crate::Recommendations>(&cfg, &mut out);
    decl::<crate::DownloadState>(&cfg, &mut out);
    decl::<crate::Download>(&cfg, &mut out);
    decl::<crate::DownloadsView>(&cfg, &mut out);
    decl::<crate::ContextBreakdown>(&cfg, &mut out);
    decl::<crate::BreakdownPart>(&cfg, &mut out);
    decl::<crate::BreakdownCategory>(&cfg, &mut out);
    decl::<crate::BreakdownItem>(&cfg, &mut out);
    decl::<crate::BreakdownAction>(&cfg, &mut out);
    decl::<crate::CompactScope>(&cfg, &mut out);
    decl::<crate::SummaryPreview>(&cfg, &mut out);
    decl::<crate::ConversationDefaults>(&cfg, &mut out);
    decl::<crate::StandingInstructions>(&cfg, &mut out);
    decl::<StoredImage>(&cfg, &mut out);
    decl::<ImageAttachment>(&cfg, &mut out);
    decl::<ImageData>(&cfg, &mut out);
    decl::<NewMessage>(&cfg, &mut out);
    decl::<Command>(&cfg, &mut out);
    decl::<SendReceipt>(&cfg, &mut out);
    decl::<ContextSummary>(&cfg, &mut out);
    decl::<BranchSummary>(&cfg, &mut out);
    decl::<BranchLabel>(&cfg, &mut out);
    decl::<crate::MessageVersions>(&cfg, &mut out);
    decl::<crate::QueueChange>(&cfg, &mut out);
    decl::<crate::MessageVersion>(&cfg, &mut out);
    decl::<FileState>(&cfg, &mut out);
    decl::<SearchHit>(&cfg, &mut out);
    decl::<SnippetPart>(&cfg, &mut out);
    decl::<FileInPlay>(&cfg, &mut out);
    decl::<OverwriteReason>(&cfg, &mut out);
    decl::<OverwriteRisk>(&cfg, &mut out);
    decl::<crate::tools::PromptedCall>(&cfg, &mut out);
    decl::<crate::tools::SecretUse>(&cfg, &mut out);
    decl::<WritePreview>(&cfg, &mut out);
    decl::<ContextUsage>(&cfg, &mut out);
    decl::<crate::Draft>(&cfg, &mut out);
    decl::<ContextSnapshot>(&cfg, &mut out);
    decl::<crate::ExportFormat>(&cfg, &mut out);
    decl::<crate::ExportedFile>(&cfg, &mut out);
    decl::<MessageChange>(&cfg, &mut out);
    decl::<MessageLifecycle>(&cfg, &mut out);
    decl::<QueuedPreview>(&cfg, &mut out);
    decl::<Notice>(&cfg, &mut out);
    decl::<UpdateMetadata>(&cfg, &mut out);
    decl::<ContextUpdate>(&cfg, &mut out);
    decl::<ContentDelta>(&cfg, &mut out);
    decl::<ContentFinal>(&cfg, &mut out);
    decl::<BraidEvent>(&cfg, &mut out);
    tables(&mut out);
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}
