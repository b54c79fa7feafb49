// The one interface the UI talks to. A Tauri implementation (desktop) and
// an HTTP/SSE one (browser) both provide it; components never call a
// transport directly.
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
  Sandbox,
  SearchHit,
  SendReceipt,
  SettingsView,
  StoredImage,
  ToolApprovalPolicy,
  ToolSettings,
  ToolSpec,
  ExportFormat,
  ExportedFile,
  WireError,
} from "../generated/protocol";

export interface Backend {
  listContexts(): Promise<ContextSummary[]>;
  /** `workingDir`: the conversation's workspace folder; the app's
   *  default when absent. */
  createContext(title?: string, workingDir?: string): Promise<ContextSummary>;
  /** The tools work in `dir` from their next call; only while idle. */
  setWorkingDir(id: ContextId, dir: string): Promise<ContextSummary>;
  /** The folder a conversation created without one works in. */
  defaultWorkingDir(): Promise<string>;
  /** The system's folder picker (the desktop window), starting at
   *  `start`; `null` when closed without a choice. Absent in browsers,
   *  where the path is typed. */
  pickFolder?(start?: string): Promise<string | null>;
  /** The system's file picker for a GGUF model (the desktop window);
   *  `null` when closed without a choice. Absent in browsers. */
  pickModelFile?(): Promise<string | null>;
  deleteContext(id: ContextId): Promise<void>;
  renameContext(id: ContextId, title: string): Promise<ContextSummary>;
  /** `null` follows the default model again. */
  setContextModel(id: ContextId, model: ModelChoice | null): Promise<ContextSummary>;
  loadContext(id: ContextId): Promise<ContextSnapshot>;
  sendMessage(id: ContextId, message: NewMessage, queueIfBusy: boolean): Promise<SendReceipt>;
  /** Stops at once; a partial answer is not kept. */
  cancel(id: ContextId): Promise<void>;
  /** The running step (stream or tool) finishes, nothing further starts;
   *  what was done is kept and Continue goes on. */
  interrupt(id: ContextId): Promise<void>;
  /** From Failed: send the last request again. */
  retry(id: ContextId): Promise<void>;
  /** Takes a queued message back before it is sent. */
  unqueue(id: ContextId, messageId: MessageId): Promise<void>;
  /** With a denial, `reason` is told to the model. */
  decideToolCall(id: ContextId, callId: string, decision: ApprovalDecision, reason?: string | null): Promise<void>;
  /** After the tool loop stopped (limit, repeat, interrupt): go on. */
  continueLoop(id: ContextId): Promise<void>;
  setMode(id: ContextId, mode: AgentMode): Promise<void>;
  /** Workspace files matching `query` (fuzzy), for the `@` picker. */
  listWorkspaceFiles(id: ContextId, query: string): Promise<string[]>;
  setContextStrategy(id: ContextId, strategy: ContextStrategy): Promise<void>;
  setToolPolicy(id: ContextId, policy: ToolApprovalPolicy): Promise<ToolSettings>;
  /** The conversation as a file: Braid's JSON, or Markdown. */
  /** Secrets go as placeholders unless `withSecrets`. */
  exportContext(id: ContextId, format: ExportFormat, withSecrets?: boolean): Promise<ExportedFile>;
  /** New conversations from a Braid export, a Claude Code session or
   *  ChatGPT's conversations.json (nothing existing changes). */
  importContext(text: string): Promise<ContextSummary[]>;
  /** The desktop window: exports straight to a file the user picks in
   *  the system's save dialog; answered by its path, null if cancelled. */
  saveExport?(id: ContextId, format: ExportFormat, withSecrets?: boolean): Promise<string | null>;
  /** The window's own open dialog for an import: the file's name and text. */
  openImport?(): Promise<{ name: string; text: string } | null>;
  /** The tools Braid has (built-in and from MCP servers), as the model sees them. */
  listTools(): Promise<ToolSpec[]>;
  /** Where the conversation's commands may write; the network on or off. */
  setSandbox(id: ContextId, sandbox: Sandbox): Promise<ToolSettings>;
  /** Assistant, or Planner (plans with read tools only). */
  setRole(id: ContextId, role: AgentRole): Promise<ToolSettings>;
  /** One typed payload (text, file, image, workflow, tool result, MCP resource). */
  sendPayload(request: SendMessageRequest): Promise<PayloadReceipt>;
  /** The workflows the conversation can run, and files that are not ones. */
  listWorkflows(id: ContextId): Promise<WorkflowList>;
  /** The last request exactly as it went to the model; null before any. */
  getSentRequest(id: ContextId): Promise<SentRequest | null>;
  /** Makes the conversation a team conversation (null: an ordinary one again). */
  setTeam(id: ContextId, team: Team | null): Promise<TeamView>;
  /** The team, whether each member can answer, and the route of turns. */
  getTeam(id: ContextId): Promise<TeamView>;
  /** Skip a queued member, skip the one answering, stop, or resume. */
  steerTeam(id: ContextId, action: TeamAction): Promise<void>;
  /** The conversation's sub-agents, oldest first; they are not in the
   *  conversation list and open from their parent's tool card. */
  listChildren(id: ContextId): Promise<ChildSummary[]>;
  /** The codebase index of the conversation's folder (null: too broad to index). */
  getCodebaseIndex(id: ContextId): Promise<CodebaseIndex | null>;
  /** Stops the index's build under way. */
  cancelCodebaseIndex(id: ContextId): Promise<CodebaseIndex | null>;
  /** Builds the index again (only changed files are read). */
  rebuildCodebaseIndex(id: ContextId): Promise<CodebaseIndex | null>;
  /** Lines of a workspace file around `line` (a result opened at the line). */
  readWorkspaceFile(id: ContextId, path: string, line: number): Promise<FileExcerpt>;
  /** A branch sharing every message up to `from`; answered by its id. */
  createBranch(id: ContextId, from: MessageId, name: string): Promise<BranchId>;
  switchBranch(id: ContextId, branch: BranchId): Promise<void>;
  renameBranch(id: ContextId, branch: BranchId, name: string): Promise<void>;
  /** Keeps a reference or image in what is sent, ahead of older messages. */
  keepInContext(id: ContextId, message: MessageId, keep: boolean): Promise<void>;
  /** Keeps a conversation at the top of the list, or no longer. */
  pinContext(id: ContextId, pinned: boolean): Promise<void>;
  /** Titles, then messages, holding the words of `query`. */
  searchConversations(query: string): Promise<SearchHit[]>;
  setBranchPrompt(id: ContextId, branch: BranchId, systemPrompt: string | null): Promise<void>;
  /** Not main, not the branch in use; messages another branch holds stay. */
  /** A branch holding everything before `message`: for an edited question or a new answer. */
  forkBefore(id: ContextId, message: MessageId, name: string): Promise<BranchId>;
  /** `null`: the branch answers with the conversation's model again. */
  setBranchModel(id: ContextId, branch: BranchId, model: ModelChoice | null): Promise<void>;
  deleteBranch(id: ContextId, branch: BranchId): Promise<void>;
  /** What merging `options.source` into the branch in use would do; changes nothing. */
  previewMerge(id: ContextId, options: MergeOptions): Promise<MergePreview>;
  /** Merges into the branch in use; answers the merge card's id. */
  merge(id: ContextId, options: MergeOptions): Promise<MessageId>;
  undoMerge(id: ContextId, merge: MessageId): Promise<void>;
  /** The conversation's model summarises what `source` found, for the merge preview. */
  draftMergeSummary(id: ContextId, source: BranchId): Promise<string>;
  branchGraph(id: ContextId): Promise<GraphView>;
  /** Tools on a normal turn, temperature, longest answer (empty: the model's default). */
  setGeneration(id: ContextId, settings: GenerationSettings): Promise<GenerationSettings>;
  /** The current snapshot first, then every event of the context;
   *  `onLagged` when the reader fell behind and events were dropped. */
  subscribe(id: ContextId, onSnapshot: (s: ContextSnapshot) => void, onEvent: (e: BraidEvent) => void, onLagged: () => void): () => void;

  getSettings(): Promise<SettingsView>;
  saveProvider(provider: ProviderInput): Promise<SettingsView>;
  removeProvider(id: string): Promise<SettingsView>;
  setDefaultProvider(id: string): Promise<SettingsView>;
  /** Connects with the form's values without saving; the models offered. */
  testProvider(provider: ProviderInput): Promise<ModelSummary[]>;
  listModels(providerId: string): Promise<ModelSummary[]>;
  detectLocalServers(): Promise<LocalServer[]>;
  /** The built-in model's shelf: its GGUF files, the default, the settings. */
  listLocalModels(): Promise<LocalModelsView>;
  /** Copies a .gguf file from this machine onto the shelf. */
  importLocalModel(path: string): Promise<LocalModelsView>;
  removeLocalModel(name: string): Promise<LocalModelsView>;
  setDefaultLocalModel(name: string): Promise<LocalModelsView>;
  /** The window and threads, from the next answer on. */
  setLocalModelSettings(settings: LocalModelSettings): Promise<LocalModelsView>;
  /** The MCP settings file and every server's state. */
  getMcpSettings(): Promise<McpSettings>;
  /** Checks and saves the file, then starts, stops or restarts what changed. */
  saveMcpSettings(text: string): Promise<McpSettings>;
  restartMcpServer(name: string): Promise<void>;
  /** Accepts a held tool's changed definition; the server starts again and offers it. */
  acceptToolDefinition(server: string, tool: string): Promise<McpSettings>;
  /** Every ready MCP server's resources (`@server:uri` adds one to a message). */
  listMcpResources(): Promise<McpResourceInfo[]>;
  listMcpPrompts(): Promise<McpPromptInfo[]>;
  /** A prompt filled in with its arguments: text for the composer. */
  getMcpPrompt(server: string, name: string, args: Record<string, string>): Promise<string>;
  /** Every ready MCP server's resource templates (URIs with variables). */
  listMcpTemplates(): Promise<McpResourceTemplate[]>;
  /** Trusts the workspace's `.mcp.json` as it is now (or no longer). */
  trustWorkspaceMcp(trusted: boolean): Promise<McpSettings>;
  /** Sets (or, with null, removes) a secret the MCP settings name as
   *  `${secret:NAME}`; its value is never sent back. */
  setMcpSecret(name: string, value: string | null): Promise<McpSettings>;

  /** Checks an image (Base64 of PNG, JPEG, WebP or GIF) and keeps it once;
   *  messages then refer to it. */
  storeImage(data: string, name: string | null): Promise<StoredImage>;
  /** A stored image's bytes, Base64, for thumbnails and the viewer. */
  readImage(imageId: string): Promise<ImageData>;
  /** Reads an image message again (vision or OCR), while idle; `mode`
   *  changes how it is read from now on. */
  retryImage(id: ContextId, messageId: MessageId, mode?: ImageMode | null): Promise<void>;
  /** The system clipboard's image as PNG (Base64), where the page cannot
   *  read it from the paste event (the desktop window); absent in
   *  browsers, which deliver pasted files themselves. */
  clipboardImage?(): Promise<string | null>;
}

/** An error from the backend, carrying the wire code the UI switches on. */
export class BackendError extends Error {
  readonly code: WireError["code"];
  constructor(error: WireError) {
    super(error.message);
    this.code = error.code;
  }
}
