//! Each command's handler: the runtime's own methods, called with the
//! command's fields. `Runtime::execute` (generated in `dispatch.rs`) calls
//! these; a new command in the protocol's list needs one here.

use crate::dispatch::Handlers;
use crate::{BranchEdit, Runtime, RuntimeError};
use braid_protocol::*;
use std::collections::BTreeMap;

type Answer<T> = Result<T, RuntimeError>;

impl Handlers for Runtime {
    // Conversations.
    async fn create_context(&self, title: Option<String>, working_dir: Option<String>) -> Answer<ContextSummary> {
        Runtime::create_context(self, title, working_dir).await
    }
    async fn set_working_dir(&self, context_id: ContextId, working_dir: String) -> Answer<ContextSummary> {
        Runtime::set_working_dir(self, &context_id, &working_dir).await
    }
    async fn default_working_dir(&self) -> Answer<String> {
        Ok(Runtime::default_working_dir(self))
    }
    async fn list_contexts(&self) -> Answer<Vec<ContextSummary>> {
        Runtime::list_contexts(self).await
    }
    async fn load_context(&self, context_id: ContextId) -> Answer<ContextSnapshot> {
        Runtime::load_context(self, &context_id).await
    }
    async fn delete_context(&self, context_id: ContextId) -> Answer<()> {
        Runtime::delete_context(self, &context_id).await
    }
    async fn rename_context(&self, context_id: ContextId, title: String) -> Answer<ContextSummary> {
        Runtime::rename_context(self, &context_id, &title).await
    }
    async fn pin_context(&self, context_id: ContextId, pinned: bool) -> Answer<()> {
        Runtime::pin_context(self, &context_id, pinned).await
    }
    async fn set_context_model(&self, context_id: ContextId, model: Option<ModelChoice>) -> Answer<ContextSummary> {
        Runtime::set_context_model(self, &context_id, model).await
    }
    async fn search_conversations(&self, query: String, limit: Option<u32>) -> Answer<Vec<SearchHit>> {
        Runtime::search_conversations(self, &query, limit).await
    }
    async fn export_context(
        &self,
        context_id: ContextId,
        format: ExportFormat,
        with_secrets: bool,
    ) -> Answer<ExportedFile> {
        Runtime::export_context(self, &context_id, format, with_secrets).await
    }
    async fn import_context(&self, text: String) -> Answer<Vec<ContextSummary>> {
        self.import_contexts(&text).await
    }
    async fn list_children(&self, context_id: ContextId) -> Answer<Vec<ChildSummary>> {
        self.children(&context_id).await
    }

    // Messages and the turn under way.
    async fn send_message(
        &self,
        context_id: ContextId,
        message: NewMessage,
        queue_if_busy: bool,
    ) -> Answer<SendReceipt> {
        Runtime::send_message(self, &context_id, message, queue_if_busy).await
    }
    async fn send_payload(&self, request: SendMessageRequest) -> Answer<PayloadReceipt> {
        Runtime::send_payload(self, request).await
    }
    async fn unqueue(&self, context_id: ContextId, message_id: MessageId) -> Answer<()> {
        Runtime::unqueue(self, &context_id, message_id).await
    }
    async fn edit_queued(
        &self,
        context_id: ContextId,
        message_id: MessageId,
        change: braid_protocol::QueueChange,
    ) -> Answer<()> {
        Runtime::edit_queued(self, &context_id, message_id, change).await
    }
    async fn cancel(&self, context_id: ContextId) -> Answer<()> {
        Runtime::cancel(self, &context_id).await
    }
    async fn interrupt(&self, context_id: ContextId) -> Answer<()> {
        Runtime::interrupt(self, &context_id).await
    }
    async fn retry(&self, context_id: ContextId) -> Answer<()> {
        Runtime::retry(self, &context_id).await
    }
    async fn continue_loop(&self, context_id: ContextId) -> Answer<()> {
        Runtime::continue_loop(self, &context_id).await
    }
    async fn decide_tool_call(
        &self,
        context_id: ContextId,
        call_id: CallId,
        decision: ApprovalDecision,
        reason: Option<String>,
    ) -> Answer<()> {
        self.decide_tool_call_with_reason(&context_id, call_id, decision, reason).await
    }
    async fn keep_in_context(&self, context_id: ContextId, message_id: MessageId, keep: bool) -> Answer<()> {
        Runtime::keep_in_context(self, &context_id, message_id, keep).await
    }
    async fn release_output(&self, context_id: ContextId, message_id: MessageId) -> Answer<()> {
        Runtime::release_output(self, &context_id, message_id).await
    }
    async fn get_sent_request(&self, context_id: ContextId) -> Answer<Option<SentRequest>> {
        self.sent_request(&context_id).await
    }
    async fn list_workflows(&self, context_id: ContextId) -> Answer<WorkflowList> {
        Runtime::list_workflows(self, &context_id).await
    }

    // Branches and merges.
    async fn create_branch(
        &self,
        context_id: ContextId,
        from_message: MessageId,
        name: String,
        system_prompt: Option<String>,
    ) -> Answer<BranchId> {
        Runtime::create_branch(self, &context_id, from_message, name, system_prompt).await
    }
    async fn fork_before(&self, context_id: ContextId, message: MessageId, name: String) -> Answer<BranchId> {
        Runtime::fork_before(self, &context_id, message, name).await
    }
    async fn switch_branch(&self, context_id: ContextId, branch_id: BranchId) -> Answer<()> {
        Runtime::switch_branch(self, &context_id, branch_id).await
    }
    async fn rename_branch(&self, context_id: ContextId, branch_id: BranchId, name: String) -> Answer<()> {
        self.edit_branch(&context_id, branch_id, BranchEdit::Rename(name)).await
    }
    async fn set_branch_prompt(
        &self,
        context_id: ContextId,
        branch_id: BranchId,
        system_prompt: Option<String>,
    ) -> Answer<()> {
        self.edit_branch(&context_id, branch_id, BranchEdit::Prompt(system_prompt)).await
    }
    async fn set_branch_model(
        &self,
        context_id: ContextId,
        branch_id: BranchId,
        model: Option<ModelChoice>,
    ) -> Answer<()> {
        self.edit_branch(&context_id, branch_id, BranchEdit::Model(model)).await
    }
    async fn delete_branch(&self, context_id: ContextId, branch_id: BranchId) -> Answer<()> {
        self.delete_branch_and_copy(&context_id, branch_id).await
    }
    async fn isolate_branch(&self, context_id: ContextId, branch_id: BranchId) -> Answer<String> {
        Runtime::isolate_branch(self, &context_id, branch_id).await
    }
    async fn remove_branch_copy(&self, context_id: ContextId, branch_id: BranchId, discard: bool) -> Answer<()> {
        Runtime::remove_branch_copy(self, &context_id, branch_id, discard).await
    }
    async fn preview_merge(&self, context_id: ContextId, options: Box<MergeOptions>) -> Answer<MergePreview> {
        Runtime::preview_merge(self, &context_id, *options).await
    }
    async fn merge(&self, context_id: ContextId, options: Box<MergeOptions>) -> Answer<MessageId> {
        Runtime::merge(self, &context_id, *options).await
    }
    async fn undo_merge(&self, context_id: ContextId, merge: MessageId) -> Answer<()> {
        Runtime::undo_merge(self, &context_id, merge).await
    }
    async fn preview_switch_files(&self, context_id: ContextId, branch_id: BranchId) -> Answer<RewindPreview> {
        Runtime::preview_switch_files(self, &context_id, branch_id).await
    }
    async fn switch_branch_with_files(
        &self,
        context_id: ContextId,
        branch_id: BranchId,
        overwrite: Vec<String>,
    ) -> Answer<RewindOutcome> {
        Runtime::switch_branch_with_files(self, &context_id, branch_id, overwrite).await
    }
    async fn preview_rewind(&self, context_id: ContextId, message_id: MessageId) -> Answer<RewindPreview> {
        Runtime::preview_rewind(self, &context_id, message_id).await
    }
    async fn rewind_files(
        &self,
        context_id: ContextId,
        message_id: MessageId,
        overwrite: Vec<String>,
    ) -> Answer<RewindOutcome> {
        Runtime::rewind_files(self, &context_id, message_id, overwrite).await
    }
    async fn undo_rewind(&self, context_id: ContextId, note: MessageId) -> Answer<RewindOutcome> {
        Runtime::undo_rewind(self, &context_id, note).await
    }
    async fn turn_changes(&self, context_id: ContextId, message_id: MessageId) -> Answer<TurnChanges> {
        Runtime::turn_changes(self, &context_id, message_id).await
    }
    async fn undo_changes(
        &self,
        context_id: ContextId,
        message_id: MessageId,
        files: Vec<UndoSelection>,
    ) -> Answer<RewindOutcome> {
        Runtime::undo_changes(self, &context_id, message_id, files).await
    }
    async fn changed_turns(&self, context_id: ContextId) -> Answer<Vec<TurnChangeCount>> {
        Runtime::changed_turns(self, &context_id).await
    }
    async fn get_checkpoint_storage(&self) -> Answer<CheckpointStorage> {
        Runtime::checkpoint_storage(self).await
    }
    async fn set_checkpoint_storage(&self, keep_days: u32, budget_mb: u32) -> Answer<CheckpointStorage> {
        Runtime::set_checkpoint_storage(self, keep_days, budget_mb).await
    }
    async fn draft_merge_summary(&self, context_id: ContextId, source: BranchId) -> Answer<String> {
        Runtime::draft_merge_summary(self, &context_id, source).await
    }
    async fn branch_graph(&self, context_id: ContextId) -> Answer<GraphView> {
        Runtime::branch_graph(self, &context_id).await
    }

    // The conversation's settings.
    async fn set_tool_policy(
        &self,
        context_id: ContextId,
        policy: ToolApprovalPolicy,
        always_ask: Option<Vec<String>>,
    ) -> Answer<ToolSettings> {
        Runtime::set_tool_policy(self, &context_id, policy, always_ask).await
    }
    async fn set_sandbox(&self, context_id: ContextId, sandbox: Sandbox) -> Answer<ToolSettings> {
        Runtime::set_sandbox(self, &context_id, sandbox).await
    }
    async fn set_generation(&self, context_id: ContextId, settings: GenerationSettings) -> Answer<GenerationSettings> {
        Runtime::set_generation(self, &context_id, settings).await
    }
    async fn set_mode(&self, context_id: ContextId, mode: AgentMode) -> Answer<()> {
        Runtime::set_mode(self, &context_id, mode).await
    }
    async fn set_role(&self, context_id: ContextId, role: AgentRole) -> Answer<ToolSettings> {
        Runtime::set_role(self, &context_id, role).await
    }
    async fn set_context_strategy(
        &self,
        context_id: ContextId,
        strategy: ContextStrategy,
        summarize_at_percent: Option<u8>,
    ) -> Answer<()> {
        Runtime::set_context_strategy(self, &context_id, strategy, summarize_at_percent).await
    }
    async fn warm_up(&self, context_id: ContextId) -> Answer<()> {
        Runtime::warm_up(self, &context_id).await
    }
    async fn context_breakdown(&self, context_id: ContextId, draft: String) -> Answer<ContextBreakdown> {
        Runtime::context_breakdown(self, &context_id, draft).await
    }
    async fn compact_context(
        &self,
        context_id: ContextId,
        instructions: Option<String>,
        scope: CompactScope,
        preview: bool,
    ) -> Answer<()> {
        Runtime::compact_context(self, &context_id, instructions, scope, preview).await
    }
    async fn apply_summary(&self, context_id: ContextId, text: Option<String>) -> Answer<()> {
        Runtime::apply_summary(self, &context_id, text).await
    }
    async fn discard_summary(&self, context_id: ContextId) -> Answer<()> {
        Runtime::discard_summary(self, &context_id).await
    }
    async fn edit_summary(&self, context_id: ContextId, message_id: MessageId, text: String) -> Answer<()> {
        Runtime::edit_summary(self, &context_id, message_id, text).await
    }
    async fn undo_summary(&self, context_id: ContextId, message_id: MessageId) -> Answer<()> {
        Runtime::undo_summary(self, &context_id, message_id).await
    }
    async fn set_tool_group(&self, context_id: ContextId, group: String, offered: bool) -> Answer<()> {
        Runtime::set_tool_group(self, &context_id, group, offered).await
    }
    async fn leave_out_of_context(&self, context_id: ContextId, message_id: MessageId, out: bool) -> Answer<()> {
        Runtime::leave_out_of_context(self, &context_id, message_id, out).await
    }
    async fn set_team(&self, context_id: ContextId, team: Option<Team>) -> Answer<TeamView> {
        Runtime::set_team(self, &context_id, team).await
    }
    async fn get_team(&self, context_id: ContextId) -> Answer<TeamView> {
        self.team(&context_id).await
    }
    async fn steer_team(&self, context_id: ContextId, action: TeamAction) -> Answer<()> {
        Runtime::steer_team(self, &context_id, action).await
    }

    // The workspace and its codebase index.
    async fn list_workspace_files(
        &self,
        context_id: ContextId,
        query: String,
        limit: Option<u32>,
    ) -> Answer<Vec<String>> {
        self.workspace_files(&context_id, query, limit).await
    }
    async fn read_workspace_file(&self, context_id: ContextId, path: String, line: u32) -> Answer<FileExcerpt> {
        Runtime::read_workspace_file(self, &context_id, &path, line).await
    }
    async fn get_codebase_index(&self, context_id: ContextId) -> Answer<Option<CodebaseIndex>> {
        self.codebase_index(&context_id).await
    }
    async fn cancel_codebase_index(&self, context_id: ContextId) -> Answer<Option<CodebaseIndex>> {
        Runtime::cancel_codebase_index(self, &context_id).await
    }
    async fn rebuild_codebase_index(&self, context_id: ContextId) -> Answer<Option<CodebaseIndex>> {
        Runtime::rebuild_codebase_index(self, &context_id).await
    }

    // Images.
    async fn store_image(&self, data: String, name: Option<String>) -> Answer<StoredImage> {
        Runtime::store_image(self, data, name).await
    }
    async fn read_image(&self, id: String) -> Answer<ImageData> {
        Runtime::read_image(self, id).await
    }
    async fn retry_image(&self, context_id: ContextId, message_id: MessageId, mode: Option<ImageMode>) -> Answer<()> {
        Runtime::retry_image(self, &context_id, message_id, mode).await
    }

    // Providers and the built-in model. The models a sub-agent's task may
    // name change with the providers: the catalogue goes out again.
    async fn get_settings(&self) -> Answer<SettingsView> {
        Ok(self.providers().view())
    }
    async fn save_provider(&self, provider: ProviderInput) -> Answer<SettingsView> {
        self.then_catalogue(self.providers().save(provider)).await
    }
    async fn remove_provider(&self, provider_id: String) -> Answer<SettingsView> {
        self.then_catalogue(self.providers().remove(&provider_id)).await
    }
    async fn set_default_provider(&self, provider_id: String) -> Answer<SettingsView> {
        self.then_catalogue(self.providers().set_default(&provider_id)).await
    }
    async fn set_conversation_defaults(&self, defaults: ConversationDefaults) -> Answer<SettingsView> {
        self.providers().set_conversation_defaults(defaults)
    }
    async fn set_standing_instructions(
        &self,
        instructions: braid_protocol::StandingInstructions,
    ) -> Answer<SettingsView> {
        self.providers().set_standing_instructions(instructions)
    }
    async fn export_settings(&self) -> Answer<String> {
        self.providers().export_settings()
    }
    async fn import_settings(&self, text: String) -> Answer<SettingsView> {
        Runtime::import_settings(self, &text).await
    }
    async fn test_provider(&self, provider: ProviderInput) -> Answer<Vec<ModelSummary>> {
        self.providers().test(&provider).await
    }
    async fn list_models(&self, provider_id: String) -> Answer<Vec<ModelSummary>> {
        self.providers().list_models(&provider_id).await
    }
    async fn detect_local_servers(&self) -> Answer<Vec<LocalServer>> {
        Ok(crate::detect_local_servers().await)
    }
    async fn list_local_models(&self) -> Answer<LocalModelsView> {
        self.providers().local_models().await
    }
    async fn import_local_model(&self, path: String) -> Answer<LocalModelsView> {
        self.providers().import_local_model(path).await
    }
    async fn link_local_model(&self, path: String) -> Answer<LocalModelsView> {
        self.providers().link_local_model(path).await
    }
    async fn remove_local_model(&self, name: String) -> Answer<LocalModelsView> {
        self.providers().remove_local_model(name).await
    }
    async fn set_default_local_model(&self, name: String) -> Answer<LocalModelsView> {
        self.providers().set_default_local_model(name).await
    }
    async fn set_local_model_settings(&self, settings: LocalModelSettings) -> Answer<LocalModelsView> {
        self.providers().set_local_model_settings(settings).await
    }
    async fn search_hub(&self, query: String) -> Answer<Vec<HubModel>> {
        self.providers().search_hub(query).await
    }
    async fn hub_repo(&self, repo: String) -> Answer<HubRepo> {
        self.providers().hub_repo(repo).await
    }
    async fn recommended_models(&self) -> Answer<Recommendations> {
        self.providers().recommended_models().await
    }
    async fn list_downloads(&self) -> Answer<DownloadsView> {
        self.providers().list_downloads()
    }
    async fn download_model(&self, repo: String, file: String, use_when_done: bool) -> Answer<DownloadsView> {
        self.providers().download_model(repo, file, use_when_done).await
    }
    async fn pause_download(&self, id: String) -> Answer<DownloadsView> {
        self.providers().change_downloads(|hub| hub.pause(&id))
    }
    async fn resume_download(&self, id: String) -> Answer<DownloadsView> {
        self.providers().change_downloads(|hub| hub.resume(&id))
    }
    async fn cancel_download(&self, id: String) -> Answer<DownloadsView> {
        self.providers().change_downloads(|hub| hub.cancel(&id))
    }
    async fn set_hub_endpoint(&self, endpoint: String) -> Answer<DownloadsView> {
        self.providers().change_downloads(|hub| hub.set_endpoint(&endpoint))
    }

    // Tools and MCP servers.
    async fn list_tools(&self) -> Answer<Vec<ToolSpec>> {
        Ok(self.tools())
    }
    async fn get_mcp_settings(&self) -> Answer<McpSettings> {
        Ok(self.mcp_settings())
    }
    async fn save_mcp_settings(&self, text: String) -> Answer<McpSettings> {
        Runtime::save_mcp_settings(self, text).await
    }
    async fn restart_mcp_server(&self, name: String) -> Answer<()> {
        Runtime::restart_mcp_server(self, &name).await
    }
    async fn accept_tool_definition(&self, server: String, tool: String) -> Answer<McpSettings> {
        Runtime::accept_tool_definition(self, &server, &tool).await
    }
    async fn list_mcp_resources(&self) -> Answer<Vec<mcp::McpResourceInfo>> {
        Ok(Runtime::list_mcp_resources(self).await)
    }
    async fn list_mcp_prompts(&self) -> Answer<Vec<mcp::McpPromptInfo>> {
        Ok(Runtime::list_mcp_prompts(self).await)
    }
    async fn list_mcp_templates(&self) -> Answer<Vec<mcp::McpResourceTemplate>> {
        Ok(Runtime::list_mcp_templates(self).await)
    }
    async fn trust_workspace_mcp(&self, trusted: bool) -> Answer<McpSettings> {
        Runtime::trust_workspace_mcp(self, trusted).await
    }
    async fn set_mcp_secret(&self, name: String, value: Option<String>) -> Answer<McpSettings> {
        Runtime::set_mcp_secret(self, &name, value).await
    }
    async fn get_mcp_prompt(
        &self,
        server: String,
        name: String,
        arguments: BTreeMap<String, String>,
    ) -> Answer<String> {
        Runtime::get_mcp_prompt(self, &server, &name, arguments).await
    }
}
