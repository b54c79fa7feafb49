//! What each command is answered with, as the types the UI receives.

use super::{BranchId, ContextSnapshot, ContextSummary, GenerationSettings, MessageId, SendReceipt};

/// What each command is answered with, by command tag, as the types the
/// UI receives. Generated into TypeScript as `CommandResponses`, which the
/// UI's `execute` is typed with; `tsc` fails if a command has no entry, and
/// the runtime's dispatch test checks each answer against its entry.
pub fn responses() -> Vec<(&'static str, String)> {
    use crate::settings::{LocalServer, ModelSummary, SettingsView};
    use crate::{ImageData, StoredImage, ToolSettings, ToolSpec};
    use ts_rs::TS;
    fn ts<T: TS>() -> String {
        T::name(&ts_rs::Config::new().with_large_int("number"))
    }
    // `()`: JSON null on the wire, nothing to read for the caller.
    let unit = || "void".to_owned();
    vec![
        ("create_context", ts::<ContextSummary>()),
        ("set_working_dir", ts::<ContextSummary>()),
        ("default_working_dir", ts::<String>()),
        ("list_contexts", ts::<Vec<ContextSummary>>()),
        ("load_context", ts::<ContextSnapshot>()),
        ("delete_context", unit()),
        ("send_message", ts::<SendReceipt>()),
        ("unqueue", unit()),
        ("cancel", unit()),
        ("interrupt", unit()),
        ("retry", unit()),
        ("continue", unit()),
        ("decide_tool_call", unit()),
        ("create_branch", ts::<BranchId>()),
        ("fork_before", ts::<BranchId>()),
        ("switch_branch", unit()),
        ("rename_branch", unit()),
        ("set_branch_prompt", unit()),
        ("set_branch_model", unit()),
        ("delete_branch", unit()),
        ("preview_merge", ts::<crate::MergePreview>()),
        ("merge", ts::<MessageId>()),
        ("undo_merge", unit()),
        ("draft_merge_summary", ts::<String>()),
        ("branch_graph", ts::<crate::GraphView>()),
        ("rename_context", ts::<ContextSummary>()),
        ("export_context", ts::<crate::ExportedFile>()),
        ("import_context", ts::<Vec<ContextSummary>>()),
        ("pin_context", unit()),
        ("keep_in_context", unit()),
        ("search_conversations", ts::<Vec<crate::SearchHit>>()),
        ("set_context_model", ts::<ContextSummary>()),
        ("get_settings", ts::<SettingsView>()),
        ("get_mcp_settings", ts::<crate::McpSettings>()),
        ("save_mcp_settings", ts::<crate::McpSettings>()),
        ("restart_mcp_server", unit()),
        ("accept_tool_definition", ts::<crate::McpSettings>()),
        ("list_mcp_resources", ts::<Vec<crate::mcp::McpResourceInfo>>()),
        ("list_mcp_prompts", ts::<Vec<crate::mcp::McpPromptInfo>>()),
        ("list_mcp_templates", ts::<Vec<crate::mcp::McpResourceTemplate>>()),
        ("trust_workspace_mcp", ts::<crate::McpSettings>()),
        ("set_mcp_secret", ts::<crate::McpSettings>()),
        ("get_mcp_prompt", ts::<String>()),
        ("save_provider", ts::<SettingsView>()),
        ("remove_provider", ts::<SettingsView>()),
        ("set_default_provider", ts::<SettingsView>()),
        ("test_provider", ts::<Vec<ModelSummary>>()),
        ("list_models", ts::<Vec<ModelSummary>>()),
        ("detect_local_servers", ts::<Vec<LocalServer>>()),
        ("list_local_models", ts::<crate::LocalModelsView>()),
        ("import_local_model", ts::<crate::LocalModelsView>()),
        ("remove_local_model", ts::<crate::LocalModelsView>()),
        ("set_default_local_model", ts::<crate::LocalModelsView>()),
        ("set_local_model_settings", ts::<crate::LocalModelsView>()),
        ("list_tools", ts::<Vec<ToolSpec>>()),
        ("set_tool_policy", ts::<ToolSettings>()),
        ("set_sandbox", ts::<ToolSettings>()),
        ("set_generation", ts::<GenerationSettings>()),
        ("set_mode", unit()),
        ("set_role", ts::<ToolSettings>()),
        ("send_payload", ts::<crate::PayloadReceipt>()),
        ("list_workflows", ts::<crate::WorkflowList>()),
        ("get_sent_request", ts::<Option<crate::SentRequest>>()),
        ("set_team", ts::<crate::TeamView>()),
        ("get_team", ts::<crate::TeamView>()),
        ("steer_team", unit()),
        ("list_children", ts::<Vec<crate::ChildSummary>>()),
        ("get_codebase_index", ts::<Option<crate::CodebaseIndex>>()),
        ("cancel_codebase_index", ts::<Option<crate::CodebaseIndex>>()),
        ("rebuild_codebase_index", ts::<Option<crate::CodebaseIndex>>()),
        ("read_workspace_file", ts::<crate::FileExcerpt>()),
        ("list_workspace_files", ts::<Vec<String>>()),
        ("set_context_strategy", unit()),
        ("store_image", ts::<StoredImage>()),
        ("read_image", ts::<ImageData>()),
        ("retry_image", unit()),
    ]
}
