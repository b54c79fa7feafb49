//! Commands from a client (the window, a browser, the CLI) and the DTOs that
//! answer them. Each variant documents its answer; progress arrives as
//! events (see [`crate::event`]).

pub use crate::context::{BranchLabel, BranchSummary, ContextSnapshot, ContextSummary, ContextUsage};
pub use crate::files::{FileInPlay, FileState, OverwriteReason, OverwriteRisk, WritePreview};
use crate::generation::GenerationSettings;
use crate::ids::{BranchId, CallId, ContextId, MessageId};
use crate::message::{ImageMode, ImageSource, MessageType, Role};
use crate::settings::{ModelChoice, ProviderInput};
use crate::tools::{AgentMode, ContextStrategy, ToolApprovalPolicy};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

mod responses;
pub use responses::responses;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// Answered by a [`ContextSummary`].
    CreateContext {
        #[serde(default)]
        title: Option<String>,
        /// The runtime's default when absent; changed with `SetWorkingDir`.
        #[serde(default)]
        working_dir: Option<String>,
    },
    /// Answered by the [`ContextSummary`]. Only while idle: the tools work
    /// in this folder from the next call; it must exist.
    SetWorkingDir { context_id: ContextId, working_dir: String },
    /// Answered by a `String`: the folder a conversation created without
    /// one works in.
    DefaultWorkingDir,
    /// Answered by [`crate::McpSettings`]: the MCP settings file and every
    /// server's state.
    GetMcpSettings,
    /// Answered by [`crate::McpSettings`]. Checks and saves the file, then
    /// starts, stops or restarts the servers that changed; a file that
    /// cannot be used is refused and nothing changes.
    SaveMcpSettings { text: String },
    /// Answered by `()`: the server starts again from the beginning.
    RestartMcpServer { name: String },
    /// Accepts a held tool's new definition: it joins the catalogue.
    AcceptToolDefinition { server: String, tool: String },
    /// Answered by `Vec<McpResourceInfo>`: every ready server's resources.
    ListMcpResources,
    /// Answered by `Vec<McpPromptInfo>`: every ready server's prompts.
    ListMcpPrompts,
    /// Answered by `Vec<McpResourceTemplate>`: every ready server's
    /// resource templates.
    ListMcpTemplates,
    /// Answered by [`crate::McpSettings`]. Trusts (or no longer trusts) the
    /// workspace's `.mcp.json` as it is now, and starts (or stops) its
    /// servers.
    TrustWorkspaceMcp { trusted: bool },
    /// Answered by [`crate::McpSettings`]. Sets a secret the MCP settings
    /// name as `${secret:NAME}` (kept in the keychain, or the private key
    /// file), or removes it when `value` is null; servers using it restart.
    SetMcpSecret { name: String, value: Option<String> },
    /// Answered by a `String`: the prompt's text, filled in, for the
    /// composer.
    GetMcpPrompt { server: String, name: String, arguments: std::collections::BTreeMap<String, String> },
    /// Answered by `Vec<ContextSummary>`, most recently updated first.
    ListContexts,
    /// Answered by a [`ContextSnapshot`].
    LoadContext { context_id: ContextId },
    /// Answered by `()`; the context and all its messages are gone.
    DeleteContext { context_id: ContextId },
    /// Answered by a [`SendReceipt`], or `agent_busy` when the context is
    /// busy and `queue_if_busy` is false. Progress comes as events.
    SendMessage {
        context_id: ContextId,
        message: NewMessage,
        #[serde(default)]
        queue_if_busy: bool,
    },
    /// Answered by a [`crate::PayloadReceipt`]: one typed payload (text, a
    /// file reference, an image, a workflow, a tool result, an MCP
    /// resource); see `docs/send-message.schema.json`.
    SendPayload { request: crate::SendMessageRequest },
    /// Answered by a [`crate::WorkflowList`]: the workflows the
    /// conversation can run (its folder's, then the app's).
    ListWorkflows { context_id: ContextId },
    /// Answered by `()`. Removes a queued message before it is sent.
    Unqueue { context_id: ContextId, message_id: MessageId },
    /// Answered by `()`: stops whatever runs, at once; no partial answer kept.
    Cancel { context_id: ContextId },
    /// Answered by `()`: the running step finishes, nothing further starts,
    /// partial results are kept.
    Interrupt { context_id: ContextId },
    /// Answered by `()`: from Failed, sends the last request again.
    Retry { context_id: ContextId },
    /// Answered by `()`: after the tool loop stopped at its limit (or was
    /// interrupted), lets the model go on from where it was.
    Continue { context_id: ContextId },
    /// Answered by `()`.
    DecideToolCall {
        context_id: ContextId,
        call_id: CallId,
        decision: ApprovalDecision,
        /// With a denial: why, told to the model with it.
        #[serde(default)]
        reason: Option<String>,
    },
    /// Answered by the new [`BranchId`].
    CreateBranch {
        context_id: ContextId,
        from_message: MessageId,
        name: String,
        #[serde(default)]
        system_prompt: Option<String>,
    },
    /// Answered by the new [`BranchId`]: a branch holding everything before
    /// `message` (a tool round goes whole), to send an edited question
    /// again or have an answer written again. Not switched to.
    ForkBefore { context_id: ContextId, message: MessageId, name: String },
    /// Answered by `()`; records a BranchSwitch message on the new branch.
    SwitchBranch { context_id: ContextId, branch_id: BranchId },
    /// Answered by `()`: 1 to 80 characters.
    RenameBranch { context_id: ContextId, branch_id: BranchId, name: String },
    /// Answered by `()`: the branch's own system prompt, from the next
    /// request on; `None` or empty goes back to the conversation's.
    SetBranchPrompt {
        context_id: ContextId,
        branch_id: BranchId,
        #[serde(default)]
        system_prompt: Option<String>,
    },
    /// Answered by `()`: answers on the branch come from this model from
    /// the next request on; `None` follows the conversation's again. The
    /// provider must exist.
    SetBranchModel {
        context_id: ContextId,
        branch_id: BranchId,
        #[serde(default)]
        model: Option<ModelChoice>,
    },
    /// Answered by `()`: the branch and the messages only it holds are
    /// gone; its forks hang from its parent. Not main, not the branch in
    /// use.
    DeleteBranch { context_id: ContextId, branch_id: BranchId },
    /// Answered by a [`crate::MergePreview`]: what merging the source
    /// into the branch in use would do. Changes nothing.
    PreviewMerge { context_id: ContextId, options: Box<crate::MergeOptions> },
    /// Answered by the merge card's [`MessageId`]; refused with the
    /// preview's reason when it cannot be applied as asked.
    Merge { context_id: ContextId, options: Box<crate::MergeOptions> },
    /// Answered by `()`: the merge whose card is `merge` is taken back.
    UndoMerge { context_id: ContextId, merge: MessageId },
    /// Answered by the text the conversation's model wrote: a summary of
    /// what `source` found since it parted from the branch in use.
    DraftMergeSummary { context_id: ContextId, source: BranchId },
    /// Answered by the [`crate::GraphView`] of the whole conversation.
    BranchGraph { context_id: ContextId },
    /// Answered by the [`ContextSummary`] with the new title.
    RenameContext { context_id: ContextId, title: String },
    /// Answered by an [`crate::ExportedFile`]: the conversation as Braid's
    /// JSON (every branch, merge record and image) or as Markdown. Secrets
    /// go as their placeholders unless `with_secrets` asks for them.
    ExportContext {
        context_id: ContextId,
        format: crate::ExportFormat,
        #[serde(default)]
        with_secrets: bool,
    },
    /// Answered by the new conversations' [`ContextSummary`]s: a Braid JSON
    /// export, a Claude Code session (`.jsonl`) or ChatGPT's
    /// `conversations.json` (one conversation each, all read before any is
    /// stored); it never changes an existing conversation.
    ImportContext { text: String },
    /// Answered by `()`: a file reference, image or resource is kept in
    /// what is sent, ahead of older messages, while it fits (or no longer).
    KeepInContext { context_id: ContextId, message_id: MessageId, keep: bool },
    /// Answered by `()`: the conversation is kept at the top of the list
    /// (or no longer); when it last changed stays as it was.
    PinContext { context_id: ContextId, pinned: bool },
    /// Answered by `Vec<SearchHit>`: titles containing the words, then
    /// messages holding all of them (the last may be the start of a word),
    /// best first; at most `limit` (50 by default, 200 at most).
    SearchConversations {
        query: String,
        #[serde(default)]
        limit: Option<u32>,
    },
    /// Answered by the [`ContextSummary`]; `None` follows the default model
    /// again. Takes effect from the next request.
    SetContextModel {
        context_id: ContextId,
        #[serde(default)]
        model: Option<ModelChoice>,
    },
    /// Answered by a [`crate::SettingsView`].
    GetSettings,
    /// Adds or replaces a provider; answered by the new `SettingsView`.
    SaveProvider { provider: ProviderInput },
    /// Removes a provider and its stored key; answered by the `SettingsView`.
    RemoveProvider { provider_id: String },
    /// Answered by the `SettingsView`.
    SetDefaultProvider { provider_id: String },
    /// Connects with the form's values (the stored key when the key is
    /// unchanged) without saving; answered by the models it offers
    /// (`Vec<ModelSummary>`), or an error saying what failed.
    TestProvider { provider: ProviderInput },
    /// Answered by `Vec<ModelSummary>` of a saved provider.
    ListModels { provider_id: String },
    /// Looks for OpenAI-compatible servers on 127.0.0.1 (llama.cpp, Ollama,
    /// LM Studio ports); answered by `Vec<LocalServer>`.
    DetectLocalServers,
    /// Answered by the [`crate::LocalModelsView`]: the built-in model's
    /// shelf (an error where this build runs no built-in model).
    ListLocalModels,
    /// Copies a GGUF file from this machine onto the shelf (the first one
    /// there becomes the default); answered by the `LocalModelsView`.
    ImportLocalModel { path: String },
    /// Deletes an imported model's file; answered by the `LocalModelsView`.
    RemoveLocalModel { name: String },
    /// The model that answers from the next request on; answered by the
    /// `LocalModelsView`.
    SetDefaultLocalModel { name: String },
    /// The window and threads, from the next request on; answered by the
    /// `LocalModelsView`.
    SetLocalModelSettings { settings: crate::LocalModelSettings },
    /// Answered by `Vec<ToolSpec>`: the tools Braid has.
    ListTools,
    /// Answered by the context's [`ToolSettings`]. Takes effect for the
    /// next call decided.
    SetToolPolicy {
        context_id: ContextId,
        policy: ToolApprovalPolicy,
        #[serde(default)]
        always_ask: Option<Vec<String>>,
    },
    /// Answered by the context's [`ToolSettings`]. Where `run_command` may
    /// write and whether it may use the network, from the next command.
    SetSandbox { context_id: ContextId, sandbox: crate::Sandbox },
    /// Answered by the context's [`GenerationSettings`] as stored. Takes
    /// effect from the next request; a temperature outside 0 to 2 or a
    /// zero token limit is refused.
    SetGeneration { context_id: ContextId, settings: GenerationSettings },
    /// Answered by `()`; records a ModeChange message. Only while idle.
    SetMode { context_id: ContextId, mode: AgentMode },
    /// Answered by [`ToolSettings`]: Assistant, or Planner (plans with read tools
    /// only and changes nothing); told to the model from the next request.
    SetRole { context_id: ContextId, role: crate::AgentRole },
    /// Answered by `Option<SentRequest>`: the conversation's last request
    /// exactly as it went to the model (none since the app started).
    GetSentRequest { context_id: ContextId },
    /// Answered by [`crate::TeamView`]: makes the conversation a team
    /// conversation with these members (or an ordinary one again with
    /// `None`), while idle. Refused, with what to do, when a CLI member's
    /// program is not installed or not signed in.
    SetTeam {
        context_id: ContextId,
        #[serde(default)]
        team: Option<crate::Team>,
    },
    /// Answered by [`crate::TeamView`]: the team, its members' readiness
    /// and the route of turns.
    GetTeam { context_id: ContextId },
    /// Answered by `()`: skip a queued member, stop the answering one,
    /// stop the chain, or go on after a pause.
    SteerTeam { context_id: ContextId, action: crate::TeamAction },
    /// Answered by `Vec<`[`crate::ChildSummary`]`>`: the conversation's
    /// sub-agents, oldest first (the conversation list leaves them out).
    ListChildren { context_id: ContextId },
    /// Answered by `Option<CodebaseIndex>`: the codebase index of the
    /// conversation's workspace (building, with progress, or ready); none
    /// for a folder too broad to index (`/`, the home folder).
    GetCodebaseIndex { context_id: ContextId },
    /// Answered by `Option<CodebaseIndex>`: stops the build under way.
    CancelCodebaseIndex { context_id: ContextId },
    /// Answered by `Option<CodebaseIndex>`: builds the index again (only
    /// files changed since the last build are read).
    RebuildCodebaseIndex { context_id: ContextId },
    /// Answered by [`crate::FileExcerpt`]: lines of a workspace file around
    /// `line` (a codebase tool's result opened at the line).
    ReadWorkspaceFile { context_id: ContextId, path: String, line: u32 },
    /// Answered by `Vec<String>`: files of the conversation's workspace
    /// (relative paths, `.gitignore` respected) that match `query` as a
    /// fuzzy subsequence, best first, at most `limit` (default 50).
    ListWorkspaceFiles {
        context_id: ContextId,
        #[serde(default)]
        query: String,
        #[serde(default)]
        limit: Option<u32>,
    },
    /// Answered by `()`: how the conversation is fitted into the model's
    /// window from the next request on (storage is never trimmed).
    SetContextStrategy {
        context_id: ContextId,
        strategy: ContextStrategy,
        #[serde(default)]
        summarize_at_percent: Option<u8>,
    },
    /// Checks an image (PNG, JPEG, WebP, GIF; `data` is Base64) and keeps
    /// it once in the image store; answered by its [`crate::StoredImage`].
    /// Corrupt or unsupported data is refused with the reason.
    StoreImage {
        data: String,
        #[serde(default)]
        name: Option<String>,
    },
    /// Answered by the stored image's [`ImageData`].
    ReadImage { id: String },
    /// Answered by `()`: reads an image message again (vision or OCR, as
    /// its mode — or `mode`, which then becomes its mode — and the current
    /// model say), while idle.
    RetryImage {
        context_id: ContextId,
        message_id: MessageId,
        #[serde(default)]
        mode: Option<ImageMode>,
    },
}

/// The user's answer to an approval request. Anything but an explicit
/// approval is a denial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    Approve,
    #[default]
    Deny,
    /// Approves every call waiting for an answer.
    ApproveAll,
    /// Approves this call even though it writes over a file changed
    /// outside Braid since the agent read it.
    ApproveOverwrite,
    /// Approves this call and every later call of the same tool in this
    /// conversation (not for tools on the always-ask list).
    AlwaysAllow,
}

/// A message as a client submits it: no id, no timestamp (the core assigns
/// both).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct NewMessage {
    pub body: MessageType,
    /// Makes the model call this tool in its first answer (the composer's
    /// `/tool name …`); it must be a tool the mode offers.
    #[serde(default)]
    #[ts(optional)]
    pub force_tool: Option<String>,
    /// Images sent with the message (from `store_image`); each becomes an
    /// Image message just before it, read by vision or OCR first.
    #[serde(default)]
    pub images: Vec<ImageAttachment>,
}

impl NewMessage {
    /// What a user types: text alone, no forced tool, no images.
    pub fn user_text(text: &str) -> NewMessage {
        NewMessage { body: MessageType::text(Role::User, text), force_tool: None, images: Vec::new() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImageAttachment {
    pub source: ImageSource,
    #[serde(default)]
    pub mode: ImageMode,
}

/// An image's bytes, Base64 encoded, for showing it full size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImageData {
    pub media_type: String,
    pub data: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SendReceipt {
    pub message_id: MessageId,
    /// True when the context was busy and the message waits in its queue.
    pub queued: bool,
}
