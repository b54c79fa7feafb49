//! The command list, continued from `list.rs`: settings, providers and
//! models, tools, teams and sub-agents, the workspace and images. Receives
//! the entries before these and hands the whole list to the callback.

#[doc(hidden)]
#[macro_export]
macro_rules! __commands_continued {
    ($callback:ident; $($before:tt)*) => {
        $callback! {
            $($before)*
            get_settings: GetSettings => $crate::SettingsView;
            /// How long checkpoints are kept, their space budget, and the
            /// space they take now.
            get_checkpoint_storage: GetCheckpointStorage => $crate::CheckpointStorage;
            /// Keeps checkpoints this many days within this budget (both at
            /// least 1), dropping what falls outside now; answers the space
            /// they take afterwards.
            set_checkpoint_storage: SetCheckpointStorage {
                keep_days: u32,
                budget_mb: u32,
            } => $crate::CheckpointStorage;
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
            /// What new conversations start with (fitting, summaries, cut
            /// answers); conversations already there keep their own.
            set_conversation_defaults: SetConversationDefaults {
                defaults: $crate::ConversationDefaults,
            } => $crate::SettingsView;
            /// What the user tells every conversation (about them, how to
            /// answer), from the next request on; each at most 3,000
            /// characters.
            set_standing_instructions: SetStandingInstructions {
                instructions: $crate::StandingInstructions,
            } => $crate::SettingsView;
            /// The settings as a JSON file to keep or take to another
            /// machine: providers (never their keys), defaults, standing
            /// instructions.
            export_settings: ExportSettings => String;
            /// Settings from an exported file, checked whole first: a file
            /// that cannot be used changes nothing. Providers' keys stay
            /// where they are (a provider new here needs its key).
            import_settings: ImportSettings {
                text: String,
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
            /// Runs another app's GGUF file in place: a link on the shelf,
            /// named as that app names the model; the file is not copied.
            link_local_model: LinkLocalModel {
                path: String,
            } => $crate::LocalModelsView;
            /// Deletes an imported model's file (a linked one: the link).
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
            /// GGUF repositories on the hub whose name holds `query`, most
            /// downloaded first.
            search_hub: SearchHub {
                query: String,
            } => Vec<$crate::HubModel>;
            /// A hub repository's GGUF files, each with its size, checksum
            /// and what it would take in memory here (from its header,
            /// read with a range request).
            hub_repo: HubRepo {
                repo: String,
            } => $crate::HubRepo;
            /// Models chosen for this machine's memory, cores and GPU.
            recommended_models: RecommendedModels => $crate::Recommendations;
            /// Downloads running, queued, paused, failed and just done.
            list_downloads: ListDownloads => $crate::DownloadsView;
            /// Queues a hub file for the shelf; `use_when_done` makes it
            /// the model that answers once it is there.
            download_model: DownloadModel {
                repo: String,
                file: String,
                #[serde(default)]
                use_when_done: bool,
            } => $crate::DownloadsView;
            /// Stops a download, keeping what came for Resume.
            pause_download: PauseDownload {
                id: String,
            } => $crate::DownloadsView;
            /// Goes on from where a paused or failed download stopped.
            resume_download: ResumeDownload {
                id: String,
            } => $crate::DownloadsView;
            /// Stops a download and deletes what came (a finished one is
            /// only taken off the list).
            cancel_download: CancelDownload {
                id: String,
            } => $crate::DownloadsView;
            /// The hub to search and download from (a mirror, or an
            /// offline registry); empty: Hugging Face.
            set_hub_endpoint: SetHubEndpoint {
                endpoint: String,
            } => $crate::DownloadsView;
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
            /// The user started writing here: what answering needs gets
            /// ready now, not at the send (the built-in model, when it is
            /// what answers here, loaded with its prompt read; the token
            /// tables of this conversation's model).
            warm_up: WarmUp {
                context_id: $crate::ContextId,
            } => ();
            /// What the next request would hold, part by part, with `draft`
            /// as its newest message (the `/context` view).
            context_breakdown: ContextBreakdown {
                context_id: $crate::ContextId,
                #[serde(default)]
                draft: String,
            } => $crate::ContextBreakdown;
            /// Summarises now (`/compact`): everything but the last exchange,
            /// or up to / from a message, keeping what `instructions` say.
            /// With `preview` the summary waits for `apply_summary`.
            compact_context: CompactContext {
                context_id: $crate::ContextId,
                #[serde(default)]
                instructions: Option<String>,
                #[serde(default)]
                scope: $crate::CompactScope,
                #[serde(default)]
                preview: bool,
            } => ();
            /// The summary waiting for approval replaces its messages (with
            /// `text` when the user edited it).
            apply_summary: ApplySummary {
                context_id: $crate::ContextId,
                #[serde(default)]
                text: Option<String>,
            } => ();
            /// The summary waiting for approval is thrown away.
            discard_summary: DiscardSummary {
                context_id: $crate::ContextId,
            } => ();
            /// A summary's text is changed; what it replaces stays.
            edit_summary: EditSummary {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
                text: String,
            } => ();
            /// A summary is taken back: its messages are sent again.
            undo_summary: UndoSummary {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
            } => ();
            /// A tool group (`files`, `commands`, `codebase`, `agents`,
            /// `mcp:NAME`) is offered in this conversation or no longer.
            set_tool_group: SetToolGroup {
                context_id: $crate::ContextId,
                group: String,
                offered: bool,
            } => ();
            /// A message is left out of what is sent (or sent again); it
            /// stays in the history.
            leave_out_of_context: LeaveOutOfContext {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
                out: bool,
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
