//! One entry point for every wire [`Command`]: shells (the HTTP server, the
//! desktop app) parse a command, call [`Runtime::execute`], and send back
//! the JSON answer or the `{code, message}` error. No shell holds logic.

use crate::{BranchEdit, Runtime, RuntimeError};
use braid_protocol::{Command, WireError};
use serde_json::{json, Value};

fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, WireError> {
    serde_json::to_value(value).map_err(|e| WireError::new(braid_protocol::ErrorCode::Internal, e.to_string()))
}

impl Runtime {
    /// Runs one command; the answer is the JSON form of what the command's
    /// documentation names (`null` for `()`).
    pub async fn execute(&self, command: Command) -> Result<Value, WireError> {
        let wire = |e: RuntimeError| e.to_wire();
        match command {
            Command::CreateContext { title, working_dir } => {
                to_json(&self.create_context(title, working_dir).await.map_err(wire)?)
            }
            Command::SetWorkingDir { context_id, working_dir } => {
                to_json(&self.set_working_dir(&context_id, &working_dir).await.map_err(wire)?)
            }
            Command::DefaultWorkingDir => to_json(&self.default_working_dir()),
            Command::GetMcpSettings => to_json(&self.mcp_settings()),
            Command::SaveMcpSettings { text } => to_json(&self.save_mcp_settings(text).await.map_err(wire)?),
            Command::RestartMcpServer { name } => {
                self.restart_mcp_server(&name).await.map(|()| json!(null)).map_err(wire)
            }
            Command::AcceptToolDefinition { server, tool } => {
                to_json(&self.accept_tool_definition(&server, &tool).await.map_err(wire)?)
            }
            Command::ListMcpResources => to_json(&self.list_mcp_resources().await),
            Command::ListMcpPrompts => to_json(&self.list_mcp_prompts().await),
            Command::ListMcpTemplates => to_json(&self.list_mcp_templates().await),
            Command::TrustWorkspaceMcp { trusted } => to_json(&self.trust_workspace_mcp(trusted).await.map_err(wire)?),
            Command::SetMcpSecret { name, value } => to_json(&self.set_mcp_secret(&name, value).await.map_err(wire)?),
            Command::GetMcpPrompt { server, name, arguments } => {
                to_json(&self.get_mcp_prompt(&server, &name, arguments).await.map_err(wire)?)
            }
            Command::ListContexts => to_json(&self.list_contexts().await.map_err(wire)?),
            Command::LoadContext { context_id } => to_json(&self.load_context(&context_id).await.map_err(wire)?),
            Command::DeleteContext { context_id } => {
                self.delete_context(&context_id).await.map(|()| json!(null)).map_err(wire)
            }
            Command::SendMessage { context_id, message, queue_if_busy } => {
                to_json(&self.send_message(&context_id, message, queue_if_busy).await.map_err(wire)?)
            }
            Command::Unqueue { context_id, message_id } => {
                self.unqueue(&context_id, message_id).await.map(|()| json!(null)).map_err(wire)
            }
            Command::Cancel { context_id } => self.cancel(&context_id).await.map(|()| json!(null)).map_err(wire),
            Command::Interrupt { context_id } => self.interrupt(&context_id).await.map(|()| json!(null)).map_err(wire),
            Command::Retry { context_id } => self.retry(&context_id).await.map(|()| json!(null)).map_err(wire),
            Command::DecideToolCall { context_id, call_id, decision, reason } => self
                .decide_tool_call_with_reason(&context_id, call_id, decision, reason)
                .await
                .map(|()| json!(null))
                .map_err(wire),
            Command::CreateBranch { context_id, from_message, name, system_prompt } => {
                to_json(&self.create_branch(&context_id, from_message, name, system_prompt).await.map_err(wire)?)
            }
            Command::ForkBefore { context_id, message, name } => {
                to_json(&self.fork_before(&context_id, message, name).await.map_err(wire)?)
            }
            Command::RenameBranch { context_id, branch_id, name } => self
                .edit_branch(&context_id, branch_id, BranchEdit::Rename(name))
                .await
                .map(|()| json!(null))
                .map_err(wire),
            Command::SetBranchPrompt { context_id, branch_id, system_prompt } => self
                .edit_branch(&context_id, branch_id, BranchEdit::Prompt(system_prompt))
                .await
                .map(|()| json!(null))
                .map_err(wire),
            Command::SetBranchModel { context_id, branch_id, model } => self
                .edit_branch(&context_id, branch_id, BranchEdit::Model(model))
                .await
                .map(|()| json!(null))
                .map_err(wire),
            Command::DeleteBranch { context_id, branch_id } => {
                self.edit_branch(&context_id, branch_id, BranchEdit::Delete).await.map(|()| json!(null)).map_err(wire)
            }
            Command::SwitchBranch { context_id, branch_id } => {
                self.switch_branch(&context_id, branch_id).await.map(|()| json!(null)).map_err(wire)
            }
            Command::PreviewMerge { context_id, options } => {
                to_json(&self.preview_merge(&context_id, *options).await.map_err(wire)?)
            }
            Command::Merge { context_id, options } => to_json(&self.merge(&context_id, *options).await.map_err(wire)?),
            Command::UndoMerge { context_id, merge } => {
                self.undo_merge(&context_id, merge).await.map(|()| json!(null)).map_err(wire)
            }
            Command::DraftMergeSummary { context_id, source } => {
                to_json(&self.draft_merge_summary(&context_id, source).await.map_err(wire)?)
            }
            Command::BranchGraph { context_id } => to_json(&self.branch_graph(&context_id).await.map_err(wire)?),
            Command::ExportContext { context_id, format, with_secrets } => {
                to_json(&self.export_context(&context_id, format, with_secrets).await.map_err(wire)?)
            }
            Command::ImportContext { text } => to_json(&self.import_contexts(&text).await.map_err(wire)?),
            Command::RenameContext { context_id, title } => {
                to_json(&self.rename_context(&context_id, &title).await.map_err(wire)?)
            }
            Command::PinContext { context_id, pinned } => {
                self.pin_context(&context_id, pinned).await.map(|()| json!(null)).map_err(wire)
            }
            Command::KeepInContext { context_id, message_id, keep } => {
                self.keep_in_context(&context_id, message_id, keep).await.map(|()| json!(null)).map_err(wire)
            }
            Command::SearchConversations { query, limit } => {
                to_json(&self.search_conversations(&query, limit).await.map_err(wire)?)
            }
            Command::SetContextModel { context_id, model } => {
                to_json(&self.set_context_model(&context_id, model).await.map_err(wire)?)
            }
            Command::GetSettings => to_json(&self.providers().view()),
            // The models a sub-agent's task may name change with these.
            Command::SaveProvider { provider } => {
                let view = self.providers().save(provider).map_err(wire)?;
                self.shared.contexts.catalogue_changed(&self.shared).await;
                to_json(&view)
            }
            Command::RemoveProvider { provider_id } => {
                let view = self.providers().remove(&provider_id).map_err(wire)?;
                self.shared.contexts.catalogue_changed(&self.shared).await;
                to_json(&view)
            }
            Command::SetDefaultProvider { provider_id } => {
                let view = self.providers().set_default(&provider_id).map_err(wire)?;
                self.shared.contexts.catalogue_changed(&self.shared).await;
                to_json(&view)
            }
            Command::TestProvider { provider } => to_json(&self.providers().test(&provider).await.map_err(wire)?),
            Command::ListModels { provider_id } => {
                to_json(&self.providers().list_models(&provider_id).await.map_err(wire)?)
            }
            Command::DetectLocalServers => to_json(&crate::detect_local_servers().await),
            Command::ListLocalModels => to_json(&self.providers().local_models().await.map_err(wire)?),
            Command::ImportLocalModel { path } => {
                to_json(&self.providers().import_local_model(path).await.map_err(wire)?)
            }
            Command::RemoveLocalModel { name } => {
                to_json(&self.providers().remove_local_model(name).await.map_err(wire)?)
            }
            Command::SetDefaultLocalModel { name } => {
                to_json(&self.providers().set_default_local_model(name).await.map_err(wire)?)
            }
            Command::SetLocalModelSettings { settings } => {
                to_json(&self.providers().set_local_model_settings(settings).await.map_err(wire)?)
            }
            Command::Continue { context_id } => {
                self.continue_loop(&context_id).await.map(|()| json!(null)).map_err(wire)
            }
            Command::ListTools => to_json(&self.tools()),
            Command::SetToolPolicy { context_id, policy, always_ask } => {
                to_json(&self.set_tool_policy(&context_id, policy, always_ask).await.map_err(wire)?)
            }
            Command::SetSandbox { context_id, sandbox } => {
                to_json(&self.set_sandbox(&context_id, sandbox).await.map_err(wire)?)
            }
            Command::SetGeneration { context_id, settings } => {
                to_json(&self.set_generation(&context_id, settings).await.map_err(wire)?)
            }
            Command::ListWorkspaceFiles { context_id, query, limit } => {
                to_json(&self.workspace_files(&context_id, query, limit).await.map_err(wire)?)
            }
            Command::SetContextStrategy { context_id, strategy, summarize_at_percent } => self
                .set_context_strategy(&context_id, strategy, summarize_at_percent)
                .await
                .map(|()| json!(null))
                .map_err(wire),
            Command::StoreImage { data, name } => to_json(&self.store_image(data, name).await.map_err(wire)?),
            Command::ReadImage { id } => to_json(&self.read_image(id).await.map_err(wire)?),
            Command::RetryImage { context_id, message_id, mode } => {
                self.retry_image(&context_id, message_id, mode).await.map(|()| json!(null)).map_err(wire)
            }
            Command::SetMode { context_id, mode } => {
                self.set_mode(&context_id, mode).await.map(|()| json!(null)).map_err(wire)
            }
            Command::SendPayload { request } => to_json(&self.send_payload(request).await.map_err(wire)?),
            Command::ListWorkflows { context_id } => to_json(&self.list_workflows(&context_id).await.map_err(wire)?),
            Command::SetRole { context_id, role } => to_json(&self.set_role(&context_id, role).await.map_err(wire)?),
            Command::GetSentRequest { context_id } => to_json(&self.sent_request(&context_id).await.map_err(wire)?),
            Command::SetTeam { context_id, team } => to_json(&self.set_team(&context_id, team).await.map_err(wire)?),
            Command::GetTeam { context_id } => to_json(&self.team(&context_id).await.map_err(wire)?),
            Command::ListChildren { context_id } => to_json(&self.children(&context_id).await.map_err(wire)?),
            Command::SteerTeam { context_id, action } => {
                self.steer_team(&context_id, action).await.map(|()| json!(null)).map_err(wire)
            }
            Command::GetCodebaseIndex { context_id } => to_json(&self.codebase_index(&context_id).await.map_err(wire)?),
            Command::CancelCodebaseIndex { context_id } => {
                to_json(&self.cancel_codebase_index(&context_id).await.map_err(wire)?)
            }
            Command::RebuildCodebaseIndex { context_id } => {
                to_json(&self.rebuild_codebase_index(&context_id).await.map_err(wire)?)
            }
            Command::ReadWorkspaceFile { context_id, path, line } => {
                to_json(&self.read_workspace_file(&context_id, &path, line).await.map_err(wire)?)
            }
        }
    }
}
