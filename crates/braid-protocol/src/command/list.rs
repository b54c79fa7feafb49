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
//! The list runs on in `list_more.rs` (settings, models, tools, teams,
//! the workspace), which receives the entries above and hands the whole
//! list to the callback.
//!
//! Every field ends with a comma (a type may not be followed by `}` in a
//! macro pattern). Types are written from `$crate` so that the list means
//! the same wherever it is expanded.

#[macro_export]
macro_rules! with_commands {
    ($callback:ident) => {
        $crate::__commands_continued! { $callback;
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
            /// Changes a queued message before it is sent: its text, its
            /// place, or sends it now (interrupting the answer being
            /// written, which is kept).
            edit_queued: EditQueued {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
                change: $crate::QueueChange,
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
            /// What switching to `branch_id` with its files would write: the
            /// files back as they were at the branch's last message, each
            /// with its diff; files the user changed since are flagged.
            /// Changes nothing.
            preview_switch_files: PreviewSwitchFiles {
                context_id: $crate::ContextId,
                branch_id: $crate::BranchId,
            } => $crate::RewindPreview;
            /// Switches to `branch_id` and brings its files along: as they
            /// were at its last message (journaled; undone with
            /// `undo_rewind`). Files the user changed since are kept
            /// unless named in `overwrite`. Only at rest.
            switch_branch_with_files: SwitchBranchWithFiles {
                context_id: $crate::ContextId,
                branch_id: $crate::BranchId,
                #[serde(default)]
                overwrite: Vec<String>,
            } => $crate::RewindOutcome;
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
            /// hang from its parent. Not main, not the branch in use. Its
            /// own copy of the workspace goes too; refused while that holds
            /// changes the conversation's folder does not have.
            delete_branch: DeleteBranch {
                context_id: $crate::ContextId,
                branch_id: $crate::BranchId,
            } => ();
            /// Gives the branch its own copy of the conversation's folder
            /// as it is now (a git worktree in a repository): its tools work
            /// there while it is in use. Not main. Answered with the copy.
            isolate_branch: IsolateBranch {
                context_id: $crate::ContextId,
                branch_id: $crate::BranchId,
            } => String;
            /// Removes the branch's own copy: its tools work in the
            /// conversation's folder again. Refused, naming them, while the
            /// copy holds changes the folder does not have, unless `discard`.
            remove_branch_copy: RemoveBranchCopy {
                context_id: $crate::ContextId,
                branch_id: $crate::BranchId,
                #[serde(default)]
                discard: bool,
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
            /// What the turn holding `message_id` (on the branch in use)
            /// changed in the files, as it stands: each file with its hunks.
            /// Changes nothing on disk.
            turn_changes: TurnChanges {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
            } => $crate::TurnChanges;
            /// Takes back the chosen hunks or files of that turn's changes,
            /// merged with what each file holds now, as one restore (undone
            /// with `undo_rewind`). Refused with why, writing nothing, when a
            /// file cannot be undone cleanly. Only at rest.
            undo_changes: UndoChanges {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
                files: Vec<$crate::UndoSelection>,
            } => $crate::RewindOutcome;
            /// Every turn on the branch in use whose tools changed files.
            changed_turns: ChangedTurns {
                context_id: $crate::ContextId,
            } => Vec<$crate::TurnChangeCount>;
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
            /// A tool result's withheld output (the call used a secret) goes
            /// to the model from the next request on, as the tool printed it.
            release_output: ReleaseOutput {
                context_id: $crate::ContextId,
                message_id: $crate::MessageId,
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
        }
    };
}
