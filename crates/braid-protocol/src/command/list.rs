//! The one definition of the command surface (issue #39). Each entry is a
//! command's documentation, its handler's name (which is also its wire tag
//! unless `= "tag"` says otherwise), its variant and fields, and `=>` the
//! type it is answered with.
//!
//! `with_commands!(callback)` hands the whole list to a macro of the
//! caller's. From it this crate makes the [`crate::Command`] enum, the
//! answers' table and the TypeScript client (`ui/src/generated/protocol.ts`);
//! the runtime makes its `Handlers` trait and `Runtime::execute`. Adding a
//! command is one entry here plus its handler: the compiler asks for the
//! handler, with the answer's type, and the generated-TypeScript test fails
//! until the UI's client is regenerated.
//!
//! Every field ends with a comma (a type may not be followed by `}` in a
//! macro pattern). Types are written from `$crate` so that the list means
//! the same wherever it is expanded.

#[macro_export]
macro_rules! with_commands {
    ($callback:ident) => {
        $callback! {
            /// The new conversation; `working_dir` is the runtime's default
            /// when absent (changed with `SetWorkingDir`).
            create_context: CreateContext {
                #[serde(default)]
                title: Option<String>,
                #[serde(default)]
                working_dir: Option<String>,
            } => $crate::ContextSummary;
            /// Only while idle: the tools work in this folder from the next
            /// call; it must exist.
            set_working_dir: SetWorkingDir {
                context_id: $crate::ContextId,
                working_dir: String,
            } => $crate::ContextSummary;
            /// The folder a conversation created without one works in.
            default_working_dir: DefaultWorkingDir => String;
            /// The MCP settings file and every server's state.
            get_mcp_settings: GetMcpSettings => $crate::McpSettings;
            /// Checks and saves the file, then starts, stops or restarts the
            /// servers that changed; a file that cannot be used is refused and
            /// nothing changes.
            save_mcp_settings: SaveMcpSettings {
                text: String,
            } => $crate::McpSettings;
            /// The server starts again from the beginning.
            restart_mcp_server: RestartMcpServer {
                name: String,
            } => ();
            /// Accepts a held tool's new definition: it joins the catalogue.
            accept_tool_definition: AcceptToolDefinition {
                server: String,
                tool: String,
            } => $crate::McpSettings;
            /// Every ready MCP server's resources (`@server:uri` adds one to a
            /// message).
            list_mcp_resources: ListMcpResources => Vec<$crate::mcp::McpResourceInfo>;
            /// Every ready MCP server's prompts.
            list_mcp_prompts: ListMcpPrompts => Vec<$crate::mcp::McpPromptInfo>;
            /// Every ready MCP server's resource templates (URIs with
            /// variables).
            list_mcp_templates: ListMcpTemplates => Vec<$crate::mcp::McpResourceTemplate>;
            /// Trusts (or no longer trusts) the workspace's `.mcp.json` as it
            /// is now, and starts (or stops) its servers.
            trust_workspace_mcp: TrustWorkspaceMcp {
                trusted: bool,
            } => $crate::McpSettings;
            /// Sets a secret the MCP settings name as `${secret:NAME}` (kept
            /// in the keychain, or the private key file), or removes it when
            /// `value` is null; servers using it restart. Its value is never
            /// sent back.
            set_mcp_secret: SetMcpSecret {
                name: String,
                value: Option<String>,
            } => $crate::McpSettings;
            /// The prompt's text, filled in with its arguments, for the
            /// composer.
            get_mcp_prompt: GetMcpPrompt {
                server: String,
                name: String,
                arguments: std::collections::BTreeMap<String, String>,
            } => String;
            /// Every conversation, most recently updated first.
            list_contexts: ListContexts => Vec<$crate::ContextSummary>;
            load_context: LoadContext {
                context_id: $crate::ContextId,
            } => $crate::ContextSnapshot;
            /// The conversation and all its messages are gone.
            delete_context: DeleteContext {
                context_id: $crate::ContextId,
            } => ();
            /// Refused with `agent_busy` when the conversation is busy and
            /// `queue_if_busy` is false. Progress comes as events.
            send_message: SendMessage {
                context_id: $crate::ContextId,
                message: $crate::NewMessage,
                #[serde(default)]
                queue_if_busy: bool,
            } => $crate::SendReceipt;
            /// One typed payload (text, a file reference, an image, a
            /// workflow, a tool result, an MCP resource); see
            /// `docs/send-message.schema.json`.
            send_payload: SendPayload {
                request: $crate::SendMessageRequest,
            } => $crate::PayloadReceipt;
            /// The workflows the conversation can run (its folder's, then the
            /// app's), and files that are not ones.
            list_workflows: ListWorkflows {
                context_id: $crate::ContextId,
            } => $crate::WorkflowList;
            /// Takes a queued message back before it is sent.
            unqueue: Unqueue {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
            } => ();
            /// Stops whatever runs, at once; no partial answer is kept.
            cancel: Cancel {
                context_id: $crate::ContextId,
            } => ();
            /// The running step (stream or tool) finishes, nothing further
            /// starts; what was done is kept and Continue goes on.
            interrupt: Interrupt {
                context_id: $crate::ContextId,
            } => ();
            /// From Failed: sends the last request again.
            retry: Retry {
                context_id: $crate::ContextId,
            } => ();
            /// After the tool loop stopped (its limit, a repeat, an
            /// interrupt): lets the model go on from where it was.
            continue_loop = "continue": Continue {
                context_id: $crate::ContextId,
            } => ();
            /// With a denial, `reason` is told to the model.
            decide_tool_call: DecideToolCall {
                context_id: $crate::ContextId,
                call_id: $crate::CallId,
                decision: $crate::ApprovalDecision,
                #[serde(default)]
                reason: Option<String>,
            } => ();
            /// A branch sharing every message up to `from_message`; answered
            /// by its id.
            create_branch: CreateBranch {
                context_id: $crate::ContextId,
                from_message: $crate::MessageId,
                name: String,
                #[serde(default)]
                system_prompt: Option<String>,
            } => $crate::BranchId;
            /// A branch holding everything before `message` (a tool round
            /// goes whole), to send an edited question again or have an
            /// answer written again; answered by its id. Not switched to.
            fork_before: ForkBefore {
                context_id: $crate::ContextId,
                message: $crate::MessageId,
                name: String,
            } => $crate::BranchId;
            /// Records a BranchSwitch message on the new branch.
            switch_branch: SwitchBranch {
                context_id: $crate::ContextId,
                branch_id: $crate::BranchId,
            } => ();
            /// 1 to 80 characters.
            rename_branch: RenameBranch {
                context_id: $crate::ContextId,
                branch_id: $crate::BranchId,
                name: String,
            } => ();
            /// The branch's own system prompt, from the next request on;
            /// none or empty goes back to the conversation's.
            set_branch_prompt: SetBranchPrompt {
                context_id: $crate::ContextId,
                branch_id: $crate::BranchId,
                #[serde(default)]
                system_prompt: Option<String>,
            } => ();
            /// Answers on the branch come from this model from the next
            /// request on; none follows the conversation's again. The
            /// provider must exist.
            set_branch_model: SetBranchModel {
                context_id: $crate::ContextId,
                branch_id: $crate::BranchId,
                #[serde(default)]
                model: Option<$crate::ModelChoice>,
            } => ();
            /// The branch and the messages only it holds are gone; its forks
            /// hang from its parent. Not main, not the branch in use.
            delete_branch: DeleteBranch {
                context_id: $crate::ContextId,
                branch_id: $crate::BranchId,
            } => ();
            /// What merging the source into the branch in use would do.
            /// Changes nothing.
            preview_merge: PreviewMerge {
                context_id: $crate::ContextId,
                options: Box<$crate::MergeOptions>,
            } => $crate::MergePreview;
            /// Merges into the branch in use; answered by the merge card's
            /// id, or refused with the preview's reason when it cannot be
            /// applied as asked.
            merge: Merge {
                context_id: $crate::ContextId,
                options: Box<$crate::MergeOptions>,
            } => $crate::MessageId;
            /// The merge whose card is `merge` is taken back.
            undo_merge: UndoMerge {
                context_id: $crate::ContextId,
                merge: $crate::MessageId,
            } => ();
            /// What rewinding the files to the moment `message_id` (on the
            /// branch in use) was sent would write, file by file with its
            /// diff; files the user changed since are flagged. Changes nothing.
            preview_rewind: PreviewRewind {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
            } => $crate::RewindPreview;
            /// Puts the files back as they were when `message_id` was sent
            /// (journaled; undone with `undo_rewind`). Files the user changed
            /// since are kept unless named in `overwrite`. Only at rest.
            rewind_files: RewindFiles {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
                #[serde(default)]
                overwrite: Vec<String>,
            } => $crate::RewindOutcome;
            /// Takes back the restore whose note is `note`: the files it
            /// wrote go back to what they held before it.
            undo_rewind: UndoRewind {
                context_id: $crate::ContextId,
                note: $crate::MessageId,
            } => $crate::RewindOutcome;
            /// The text the conversation's model wrote: a summary of what
            /// `source` found since it parted from the branch in use.
            draft_merge_summary: DraftMergeSummary {
                context_id: $crate::ContextId,
                source: $crate::BranchId,
            } => String;
            /// The whole conversation as a graph of branches.
            branch_graph: BranchGraph {
                context_id: $crate::ContextId,
            } => $crate::GraphView;
            /// Answered with the new title.
            rename_context: RenameContext {
                context_id: $crate::ContextId,
                title: String,
            } => $crate::ContextSummary;
            /// The conversation as Braid's JSON (every branch, merge record
            /// and image) or as Markdown. Secrets go as their placeholders
            /// unless `with_secrets` asks for them.
            export_context: ExportContext {
                context_id: $crate::ContextId,
                format: $crate::ExportFormat,
                #[serde(default)]
                with_secrets: bool,
            } => $crate::ExportedFile;
            /// New conversations from a Braid JSON export, a Claude Code
            /// session (`.jsonl`) or ChatGPT's `conversations.json` (one
            /// conversation each, all read before any is stored); it never
            /// changes an existing conversation.
            import_context: ImportContext {
                text: String,
            } => Vec<$crate::ContextSummary>;
            /// A file reference, image or resource is kept in what is sent,
            /// ahead of older messages, while it fits (or no longer).
            keep_in_context: KeepInContext {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
                keep: bool,
            } => ();
            /// The conversation is kept at the top of the list (or no
            /// longer); when it last changed stays as it was.
            pin_context: PinContext {
                context_id: $crate::ContextId,
                pinned: bool,
            } => ();
            /// Titles containing the words, then messages holding all of them
            /// (the last may be the start of a word), best first; at most
            /// `limit` (50 by default, 200 at most).
            search_conversations: SearchConversations {
                query: String,
                #[serde(default)]
                limit: Option<u32>,
            } => Vec<$crate::SearchHit>;
            /// None follows the default model again. Takes effect from the
            /// next request.
            set_context_model: SetContextModel {
                context_id: $crate::ContextId,
                #[serde(default)]
                model: Option<$crate::ModelChoice>,
            } => $crate::ContextSummary;
            get_settings: GetSettings => $crate::SettingsView;
            /// Adds or replaces a provider.
            save_provider: SaveProvider {
                provider: $crate::ProviderInput,
            } => $crate::SettingsView;
            /// Removes a provider and its stored key.
            remove_provider: RemoveProvider {
                provider_id: String,
            } => $crate::SettingsView;
            set_default_provider: SetDefaultProvider {
                provider_id: String,
            } => $crate::SettingsView;
            /// Connects with the form's values (the stored key when the key
            /// is unchanged) without saving; answered by the models it
            /// offers, or an error saying what failed.
            test_provider: TestProvider {
                provider: $crate::ProviderInput,
            } => Vec<$crate::ModelSummary>;
            /// The models a saved provider offers.
            list_models: ListModels {
                provider_id: String,
            } => Vec<$crate::ModelSummary>;
            /// OpenAI-compatible servers on 127.0.0.1 (llama.cpp, Ollama,
            /// LM Studio ports).
            detect_local_servers: DetectLocalServers => Vec<$crate::LocalServer>;
            /// The built-in model's shelf: its GGUF files, the default, the
            /// settings (an error where this build runs no built-in model).
            list_local_models: ListLocalModels => $crate::LocalModelsView;
            /// Copies a GGUF file from this machine onto the shelf (the first
            /// one there becomes the default).
            import_local_model: ImportLocalModel {
                path: String,
            } => $crate::LocalModelsView;
            /// Deletes an imported model's file.
            remove_local_model: RemoveLocalModel {
                name: String,
            } => $crate::LocalModelsView;
            /// The model that answers from the next request on.
            set_default_local_model: SetDefaultLocalModel {
                name: String,
            } => $crate::LocalModelsView;
            /// The window and threads, from the next request on.
            set_local_model_settings: SetLocalModelSettings {
                settings: $crate::LocalModelSettings,
            } => $crate::LocalModelsView;
            /// The tools Braid has (built-in and from MCP servers), as the
            /// model sees them.
            list_tools: ListTools => Vec<$crate::ToolSpec>;
            /// Takes effect for the next call decided.
            set_tool_policy: SetToolPolicy {
                context_id: $crate::ContextId,
                policy: $crate::ToolApprovalPolicy,
                #[serde(default)]
                always_ask: Option<Vec<String>>,
            } => $crate::ToolSettings;
            /// Where `run_command` may write and whether it may use the
            /// network, from the next command.
            set_sandbox: SetSandbox {
                context_id: $crate::ContextId,
                sandbox: $crate::Sandbox,
            } => $crate::ToolSettings;
            /// Answered by the settings as stored. Takes effect from the next
            /// request; a temperature outside 0 to 2 or a zero token limit
            /// is refused.
            set_generation: SetGeneration {
                context_id: $crate::ContextId,
                settings: $crate::GenerationSettings,
            } => $crate::GenerationSettings;
            /// Records a ModeChange message. Only while idle.
            set_mode: SetMode {
                context_id: $crate::ContextId,
                mode: $crate::AgentMode,
            } => ();
            /// Assistant, or Planner (plans with read tools only and changes
            /// nothing); told to the model from the next request.
            set_role: SetRole {
                context_id: $crate::ContextId,
                role: $crate::AgentRole,
            } => $crate::ToolSettings;
            /// The conversation's last request exactly as it went to the
            /// model (none since the app started).
            get_sent_request: GetSentRequest {
                context_id: $crate::ContextId,
            } => Option<$crate::SentRequest>;
            /// Makes the conversation a team conversation with these members
            /// (or an ordinary one again with none), while idle. Refused,
            /// with what to do, when a CLI member's program is not installed
            /// or not signed in.
            set_team: SetTeam {
                context_id: $crate::ContextId,
                #[serde(default)]
                team: Option<$crate::Team>,
            } => $crate::TeamView;
            /// The team, its members' readiness and the route of turns.
            get_team: GetTeam {
                context_id: $crate::ContextId,
            } => $crate::TeamView;
            /// Skip a queued member, stop the answering one, stop the chain,
            /// or go on after a pause.
            steer_team: SteerTeam {
                context_id: $crate::ContextId,
                action: $crate::TeamAction,
            } => ();
            /// The conversation's sub-agents, oldest first (the conversation
            /// list leaves them out; they open from their parent's card).
            list_children: ListChildren {
                context_id: $crate::ContextId,
            } => Vec<$crate::ChildSummary>;
            /// The codebase index of the conversation's workspace (building,
            /// with progress, or ready); none for a folder too broad to index
            /// (`/`, the home folder).
            get_codebase_index: GetCodebaseIndex {
                context_id: $crate::ContextId,
            } => Option<$crate::CodebaseIndex>;
            /// Stops the index's build under way.
            cancel_codebase_index: CancelCodebaseIndex {
                context_id: $crate::ContextId,
            } => Option<$crate::CodebaseIndex>;
            /// Builds the index again (only files changed since the last
            /// build are read).
            rebuild_codebase_index: RebuildCodebaseIndex {
                context_id: $crate::ContextId,
            } => Option<$crate::CodebaseIndex>;
            /// Lines of a workspace file around `line` (a codebase tool's
            /// result opened at the line).
            read_workspace_file: ReadWorkspaceFile {
                context_id: $crate::ContextId,
                path: String,
                line: u32,
            } => $crate::FileExcerpt;
            /// Files of the conversation's workspace (relative paths,
            /// `.gitignore` respected) that match `query` as a fuzzy
            /// subsequence, best first, at most `limit` (default 50): the
            /// `@` picker.
            list_workspace_files: ListWorkspaceFiles {
                context_id: $crate::ContextId,
                #[serde(default)]
                query: String,
                #[serde(default)]
                limit: Option<u32>,
            } => Vec<String>;
            /// How the conversation is fitted into the model's window from
            /// the next request on (storage is never trimmed).
            set_context_strategy: SetContextStrategy {
                context_id: $crate::ContextId,
                strategy: $crate::ContextStrategy,
                #[serde(default)]
                summarize_at_percent: Option<u8>,
            } => ();
            /// Checks an image (PNG, JPEG, WebP, GIF; `data` is Base64) and
            /// keeps it once in the image store; messages then refer to it.
            /// Corrupt or unsupported data is refused with the reason.
            store_image: StoreImage {
                data: String,
                #[serde(default)]
                name: Option<String>,
            } => $crate::StoredImage;
            /// A stored image's bytes, Base64, for thumbnails and the viewer.
            read_image: ReadImage {
                id: String,
            } => $crate::ImageData;
            /// Reads an image message again (vision or OCR, as its mode — or
            /// `mode`, which then becomes its mode — and the current model
            /// say), while idle.
            retry_image: RetryImage {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
                #[serde(default)]
                mode: Option<$crate::ImageMode>,
            } => ();
        }
    };
}
