// Every Backend method but `subscribe` is one protocol command; the
// transports only say how a command travels.
import type {
  ChildSummary,
  CodebaseIndex,
  Team,
  TeamAction,
  TeamView,
  FileExcerpt,
  AgentMode,
  AgentRole,
  SentRequest,
  SendMessageRequest,
  PayloadReceipt,
  WorkflowList,
  ApprovalDecision,
  BraidEvent,
  BranchId,
  ContextStrategy,
  GenerationSettings,
  Command,
  ResponseTo,
  Sandbox,
  ContextId,
  ContextSnapshot,
  ContextSummary,
  ImageData,
  GraphView,
  ImageMode,
  LocalModelSettings,
  LocalModelsView,
  LocalServer,
  McpPromptInfo,
  McpResourceInfo,
  McpResourceTemplate,
  McpSettings,
  MergeOptions,
  MergePreview,
  MessageId,
  ModelChoice,
  ModelSummary,
  NewMessage,
  ProviderInput,
  SearchHit,
  SendReceipt,
  SettingsView,
  StoredImage,
  ToolApprovalPolicy,
  ToolSettings,
  ToolSpec,
  ExportFormat,
  ExportedFile,
} from "../generated/protocol";
import type { Backend } from "./types";

export abstract class CommandBackend implements Backend {
  protected abstract execute<C extends Command>(command: C): Promise<ResponseTo<C>>;
  abstract subscribe(id: ContextId, onSnapshot: (s: ContextSnapshot) => void, onEvent: (e: BraidEvent) => void, onLagged: () => void): () => void;

  listContexts(): Promise<ContextSummary[]> {
    return this.execute({ type: "list_contexts" });
  }
  createContext(title?: string, workingDir?: string): Promise<ContextSummary> {
    return this.execute({ type: "create_context", title: title ?? null, working_dir: workingDir ?? null });
  }
  setWorkingDir(id: ContextId, dir: string): Promise<ContextSummary> {
    return this.execute({ type: "set_working_dir", context_id: id, working_dir: dir });
  }
  defaultWorkingDir(): Promise<string> {
    return this.execute({ type: "default_working_dir" });
  }
  deleteContext(id: ContextId): Promise<void> {
    return this.execute({ type: "delete_context", context_id: id });
  }
  renameContext(id: ContextId, title: string): Promise<ContextSummary> {
    return this.execute({ type: "rename_context", context_id: id, title });
  }
  setContextModel(id: ContextId, model: ModelChoice | null): Promise<ContextSummary> {
    return this.execute({ type: "set_context_model", context_id: id, model });
  }
  loadContext(id: ContextId): Promise<ContextSnapshot> {
    return this.execute({ type: "load_context", context_id: id });
  }
  sendMessage(id: ContextId, message: NewMessage, queueIfBusy: boolean): Promise<SendReceipt> {
    return this.execute({ type: "send_message", context_id: id, message, queue_if_busy: queueIfBusy });
  }
  cancel(id: ContextId): Promise<void> {
    return this.execute({ type: "cancel", context_id: id });
  }
  interrupt(id: ContextId): Promise<void> {
    return this.execute({ type: "interrupt", context_id: id });
  }
  createBranch(id: ContextId, from: MessageId, name: string): Promise<BranchId> {
    return this.execute({ type: "create_branch", context_id: id, from_message: from, name, system_prompt: null });
  }
  forkBefore(id: ContextId, message: MessageId, name: string): Promise<BranchId> {
    return this.execute({ type: "fork_before", context_id: id, message, name });
  }
  setBranchModel(id: ContextId, branch: BranchId, model: ModelChoice | null): Promise<void> {
    return this.execute({ type: "set_branch_model", context_id: id, branch_id: branch, model });
  }
  switchBranch(id: ContextId, branch: BranchId): Promise<void> {
    return this.execute({ type: "switch_branch", context_id: id, branch_id: branch });
  }
  renameBranch(id: ContextId, branch: BranchId, name: string): Promise<void> {
    return this.execute({ type: "rename_branch", context_id: id, branch_id: branch, name });
  }
  keepInContext(id: ContextId, message: MessageId, keep: boolean): Promise<void> {
    return this.execute({ type: "keep_in_context", context_id: id, message_id: message, keep });
  }
  pinContext(id: ContextId, pinned: boolean): Promise<void> {
    return this.execute({ type: "pin_context", context_id: id, pinned });
  }
  searchConversations(query: string): Promise<SearchHit[]> {
    return this.execute({ type: "search_conversations", query, limit: null });
  }
  setBranchPrompt(id: ContextId, branch: BranchId, systemPrompt: string | null): Promise<void> {
    return this.execute({ type: "set_branch_prompt", context_id: id, branch_id: branch, system_prompt: systemPrompt });
  }
  deleteBranch(id: ContextId, branch: BranchId): Promise<void> {
    return this.execute({ type: "delete_branch", context_id: id, branch_id: branch });
  }
  previewMerge(id: ContextId, options: MergeOptions): Promise<MergePreview> {
    return this.execute({ type: "preview_merge", context_id: id, options });
  }
  merge(id: ContextId, options: MergeOptions): Promise<MessageId> {
    return this.execute({ type: "merge", context_id: id, options });
  }
  undoMerge(id: ContextId, merge: MessageId): Promise<void> {
    return this.execute({ type: "undo_merge", context_id: id, merge });
  }
  draftMergeSummary(id: ContextId, source: BranchId): Promise<string> {
    return this.execute({ type: "draft_merge_summary", context_id: id, source });
  }
  branchGraph(id: ContextId): Promise<GraphView> {
    return this.execute({ type: "branch_graph", context_id: id });
  }
  retry(id: ContextId): Promise<void> {
    return this.execute({ type: "retry", context_id: id });
  }
  unqueue(id: ContextId, messageId: MessageId): Promise<void> {
    return this.execute({ type: "unqueue", context_id: id, message_id: messageId });
  }
  decideToolCall(id: ContextId, callId: string, decision: ApprovalDecision, reason: string | null = null): Promise<void> {
    return this.execute({ type: "decide_tool_call", context_id: id, call_id: callId, decision, reason });
  }
  continueLoop(id: ContextId): Promise<void> {
    return this.execute({ type: "continue", context_id: id });
  }
  setContextStrategy(id: ContextId, strategy: ContextStrategy): Promise<void> {
    return this.execute({ type: "set_context_strategy", context_id: id, strategy, summarize_at_percent: null });
  }
  listWorkspaceFiles(id: ContextId, query: string): Promise<string[]> {
    return this.execute({ type: "list_workspace_files", context_id: id, query, limit: 8 });
  }
  setMode(id: ContextId, mode: AgentMode): Promise<void> {
    return this.execute({ type: "set_mode", context_id: id, mode });
  }
  setGeneration(id: ContextId, settings: GenerationSettings): Promise<GenerationSettings> {
    return this.execute({ type: "set_generation", context_id: id, settings });
  }
  exportContext(id: ContextId, format: ExportFormat, withSecrets = false): Promise<ExportedFile> {
    return this.execute({ type: "export_context", context_id: id, format, with_secrets: withSecrets });
  }
  importContext(text: string): Promise<ContextSummary[]> {
    return this.execute({ type: "import_context", text });
  }
  listTools(): Promise<ToolSpec[]> {
    return this.execute({ type: "list_tools" });
  }
  setRole(id: ContextId, role: AgentRole): Promise<ToolSettings> {
    return this.execute({ type: "set_role", context_id: id, role });
  }
  sendPayload(request: SendMessageRequest): Promise<PayloadReceipt> {
    return this.execute({ type: "send_payload", request });
  }
  listWorkflows(id: ContextId): Promise<WorkflowList> {
    return this.execute({ type: "list_workflows", context_id: id });
  }
  getSentRequest(id: ContextId): Promise<SentRequest | null> {
    return this.execute({ type: "get_sent_request", context_id: id });
  }
  setTeam(id: ContextId, team: Team | null): Promise<TeamView> {
    return this.execute({ type: "set_team", context_id: id, team });
  }
  getTeam(id: ContextId): Promise<TeamView> {
    return this.execute({ type: "get_team", context_id: id });
  }
  steerTeam(id: ContextId, action: TeamAction): Promise<void> {
    return this.execute({ type: "steer_team", context_id: id, action });
  }
  listChildren(id: ContextId): Promise<ChildSummary[]> {
    return this.execute({ type: "list_children", context_id: id });
  }
  getCodebaseIndex(id: ContextId): Promise<CodebaseIndex | null> {
    return this.execute({ type: "get_codebase_index", context_id: id });
  }
  cancelCodebaseIndex(id: ContextId): Promise<CodebaseIndex | null> {
    return this.execute({ type: "cancel_codebase_index", context_id: id });
  }
  rebuildCodebaseIndex(id: ContextId): Promise<CodebaseIndex | null> {
    return this.execute({ type: "rebuild_codebase_index", context_id: id });
  }
  readWorkspaceFile(id: ContextId, path: string, line: number): Promise<FileExcerpt> {
    return this.execute({ type: "read_workspace_file", context_id: id, path, line });
  }
  setSandbox(id: ContextId, sandbox: Sandbox): Promise<ToolSettings> {
    return this.execute({ type: "set_sandbox", context_id: id, sandbox });
  }
  setToolPolicy(id: ContextId, policy: ToolApprovalPolicy): Promise<ToolSettings> {
    return this.execute({ type: "set_tool_policy", context_id: id, policy, always_ask: null });
  }
  getSettings(): Promise<SettingsView> {
    return this.execute({ type: "get_settings" });
  }
  getMcpSettings(): Promise<McpSettings> {
    return this.execute({ type: "get_mcp_settings" });
  }
  saveMcpSettings(text: string): Promise<McpSettings> {
    return this.execute({ type: "save_mcp_settings", text });
  }
  restartMcpServer(name: string): Promise<void> {
    return this.execute({ type: "restart_mcp_server", name });
  }
  acceptToolDefinition(server: string, tool: string): Promise<McpSettings> {
    return this.execute({ type: "accept_tool_definition", server, tool });
  }
  listMcpResources(): Promise<McpResourceInfo[]> {
    return this.execute({ type: "list_mcp_resources" });
  }
  listMcpPrompts(): Promise<McpPromptInfo[]> {
    return this.execute({ type: "list_mcp_prompts" });
  }
  getMcpPrompt(server: string, name: string, args: Record<string, string>): Promise<string> {
    return this.execute({ type: "get_mcp_prompt", server, name, arguments: args });
  }
  listMcpTemplates(): Promise<McpResourceTemplate[]> {
    return this.execute({ type: "list_mcp_templates" });
  }
  trustWorkspaceMcp(trusted: boolean): Promise<McpSettings> {
    return this.execute({ type: "trust_workspace_mcp", trusted });
  }
  setMcpSecret(name: string, value: string | null): Promise<McpSettings> {
    return this.execute({ type: "set_mcp_secret", name, value });
  }
  saveProvider(provider: ProviderInput): Promise<SettingsView> {
    return this.execute({ type: "save_provider", provider });
  }
  removeProvider(id: string): Promise<SettingsView> {
    return this.execute({ type: "remove_provider", provider_id: id });
  }
  setDefaultProvider(id: string): Promise<SettingsView> {
    return this.execute({ type: "set_default_provider", provider_id: id });
  }
  testProvider(provider: ProviderInput): Promise<ModelSummary[]> {
    return this.execute({ type: "test_provider", provider });
  }
  listModels(providerId: string): Promise<ModelSummary[]> {
    return this.execute({ type: "list_models", provider_id: providerId });
  }
  detectLocalServers(): Promise<LocalServer[]> {
    return this.execute({ type: "detect_local_servers" });
  }
  listLocalModels(): Promise<LocalModelsView> {
    return this.execute({ type: "list_local_models" });
  }
  importLocalModel(path: string): Promise<LocalModelsView> {
    return this.execute({ type: "import_local_model", path });
  }
  removeLocalModel(name: string): Promise<LocalModelsView> {
    return this.execute({ type: "remove_local_model", name });
  }
  setDefaultLocalModel(name: string): Promise<LocalModelsView> {
    return this.execute({ type: "set_default_local_model", name });
  }
  setLocalModelSettings(settings: LocalModelSettings): Promise<LocalModelsView> {
    return this.execute({ type: "set_local_model_settings", settings });
  }
  storeImage(data: string, name: string | null): Promise<StoredImage> {
    return this.execute({ type: "store_image", data, name });
  }
  readImage(imageId: string): Promise<ImageData> {
    return this.execute({ type: "read_image", id: imageId });
  }
  retryImage(id: ContextId, messageId: MessageId, mode: ImageMode | null = null): Promise<void> {
    return this.execute({ type: "retry_image", context_id: id, message_id: messageId, mode });
  }
}
