// Generated from crates/braid-protocol by `make generate`. Do not edit by hand.

export type CallId = string;

export type FailureCode = "network" | "stream_cut" | "empty_response" | "rate_limited" | "server_error" | "auth" | "context_length_exceeded" | "context_too_large" | "bad_request" | "protocol" | "no_provider" | "image_unreadable" | "storage_failed" | "storage" | "agent_failed" | "other";

export type NoticeCode = "agent_busy" | "invalid_input" | "not_found" | "storage" | "provider" | "invalid_state" | "internal" | "message_not_added" | "cancelled" | "interrupted" | "interrupting" | "empty_response" | "answer_cut" | "usage_unreported" | "file_changed" | "image_read" | "image_failed" | "ocr_used" | "loop_limit" | "loop_detected" | "summarized" | "summary_failed" | "summary_preview" | "summary_changed" | "context_trimmed" | "streaming_unavailable" | "titled" | "tools_left_out" | "team_task_cut" | "agent_failed" | "team_unknown_member" | "team_paused" | "team_limit" | "sub_agent_grace" | "secrets_hidden" | "secrets_key_replaced" | "output_withheld" | "tool_held" | "workspace_copy" | "network" | "stream_cut" | "rate_limited" | "server_error" | "auth" | "context_length_exceeded" | "context_too_large" | "bad_request" | "protocol" | "no_provider" | "image_unreadable" | "storage_failed" | "other";

export type ContextId = string;

export type MessageId = number;

export type BranchId = string;

export type RequestId = number;

export type Timestamp = number;

export type Role = "system" | "user" | "assistant";

export type ContentPart = { "kind": "text", text: string, };

export type ImageSource = { "kind": "url", url: string, } | { "kind": "base64", media_type: string, data: string, } | { "kind": "file_path", path: string, } | { "kind": "stored" } & StoredImage;

export type ImageMode = "vision" | "ocr" | "auto";

export type LineRange = { start_line: number, end_line: number, };

export type FileRefStatus = "unresolved" | "resolved" | "failed";

export type Approval = "pending" | "approved" | "approved_overwrite" | "denied" | "ask_unsandboxed" | "approved_unsandboxed";

export type ToolCall = { id: CallId, name: string, arguments: string, approval: Approval, };

export type ToolResultStatus = "success" | "error" | "cancelled";

export type MergeStrategy = "summary" | "fast_forward" | "append" | "cherry_pick" | "rebase";

export type ConflictKind = "file" | "system_prompt" | "mode" | "model" | "summary";

export type Resolution = "keep_source" | "keep_target" | "keep_both" | "drop";

export type MissingDependencies = "bring" | "without";

export type ConflictChoice = { conflict: string, resolution: Resolution, };

export type FileTake = { "kind": "ours" } | { "kind": "theirs" } | { "kind": "both" } | { "kind": "edited", text: string, };

export type FileChoice = { path: string, take: FileTake, };

export type FileConflictKind = "lines" | "deleted_and_changed" | "binary";

export type FileConflict = { kind: FileConflictKind, 
/**
 * `None`: absent on that side, or not text.
 */
ours: string | null, theirs: string | null, 
/**
 * Lines: the merged text with each conflict between markers.
 */
marked: string | null, 
/**
 * The ways it can be settled (`both` and `edited` need text).
 */
options: Array<string>, };

export type MergeFile = { path: string, 
/**
 * `added`, `changed`, `removed`, or `conflict` (until settled).
 */
action: string, 
/**
 * From the file on disk to what the merge writes (unified); empty
 * for a binary file or an unsettled conflict.
 */
diff: string, lines: LineCount | null, conflict: FileConflict | null, 
/**
 * The settlement given in the options, if any.
 */
chosen: FileTake | null, };

export type MergeOptions = { source: BranchId, strategy: MergeStrategy, 
/**
 * Cherry-pick: the source's messages to copy.
 */
picks: Array<MessageId>, missing: MissingDependencies, resolutions: Array<ConflictChoice>, 
/**
 * Summary: the text as the user edited it.
 */
summary: string | null, 
/**
 * Rebase: send each replayed user turn to the model again.
 */
answer_again: boolean, 
/**
 * How each file both branches changed in the same lines is settled.
 */
files: Array<FileChoice>, };

export type MergeItemFate = "brought" | "dependency" | "as_text" | "duplicate" | "left_out" | "resolved" | "replayed";

export type MergeItem = { id: MessageId, 
/**
 * The message's kind tag (`text`, `tool_request`, …).
 */
kind: string, role: string | null, preview: string, tokens: number, created_at: Timestamp, fate: MergeItemFate, };

export type MergeDependency = { message: MessageId, needs: MessageId, why: string, };

export type MessageStamp = { id: MessageId, created_at: Timestamp, };

export type MergeConflict = { 
/**
 * Stable for the same branches: the key of its resolution.
 */
id: string, kind: ConflictKind, title: string, detail: string, source_messages: Array<MessageStamp>, target_messages: Array<MessageStamp>, options: Array<Resolution>, suggested: Resolution, 
/**
 * The resolution given in the options, if any.
 */
chosen: Resolution | null, };

export type MergePreview = { source: BranchId, target: BranchId, strategy: MergeStrategy, 
/**
 * The last message both branches share.
 */
base: MessageId | null, 
/**
 * The source's messages since the common ancestor and their fate.
 */
items: Array<MergeItem>, 
/**
 * Messages the target holds that the source does not, since the
 * common ancestor.
 */
target_new: number, fast_forward_possible: boolean, dependencies: Array<MergeDependency>, conflicts: Array<MergeConflict>, 
/**
 * Tokens the merge adds to the target.
 */
added_tokens: number, target_tokens_before: number, target_tokens_after: number, 
/**
 * Why the merge cannot be applied as asked; `None` when it can.
 */
blocked: string | null, 
/**
 * What the merge writes in the workspace, by path.
 */
files: Array<MergeFile>, };

export type PromptBefore = { system_prompt: string | null, };

export type ModelBefore = { model: ModelChoice | null, };

export type MergeRecord = { source: BranchId, source_name: string, target: BranchId, 
/**
 * The source's last message at the merge: the card's second parent.
 */
source_tip: MessageId, strategy: MergeStrategy, 
/**
 * The messages the merge put on the target after the card (copies),
 * or took from the source (fast-forward).
 */
brought: Array<MessageId>, 
/**
 * The target's messages the resolutions took off it.
 */
removed: Array<MessageId>, 
/**
 * The target's messages before the merge, when the merge rewrote
 * them (fast-forward, removals): undo puts them back.
 */
before: Array<MessageId> | null, summary: string | null, resolutions: Array<ConflictChoice>, 
/**
 * The target's own system prompt before a resolution changed it.
 */
prompt_before: PromptBefore | null, 
/**
 * Rebase with "answer again": the user turns sent again.
 */
replayed: number, 
/**
 * Their ids, in order: undo takes them and their answers off.
 */
replay_ids: Array<MessageId>, 
/**
 * The target's own model before a resolution changed it.
 */
model_before: ModelBefore | null, };

export type GraphRow = { id: MessageId, 
/**
 * The message it follows on its line first, then (a merge) the
 * source's tip.
 */
parents: Array<MessageId>, lane: number, color: number, up: boolean, down: boolean, 
/**
 * `[lane, colour]` of each line leaving for a fork.
 */
forks: Array<[number, number]>, 
/**
 * `[lane, colour]` of each merged-in line ending here.
 */
merges: Array<[number, number]>, kind: string, role: string | null, preview: string, created_at: Timestamp, 
/**
 * Branches whose last message this is.
 */
tips: Array<BranchId>, 
/**
 * A merge card (undone or not).
 */
merge: boolean, 
/**
 * A tool request that started sub-agents: its `spawn_agents` calls,
 * whose children the graph shows as side lanes.
 */
spawns: Array<CallId>, 
/**
 * The files and lines this message's tools (or a restore) changed.
 */
changes?: ChangeCount | null, };

export type GraphBranch = { id: BranchId, name: string, color: number, parent: BranchId | null, tip: MessageId | null, message_count: number, system_prompt: string | null, 
/**
 * Its own copy of the workspace, if it has one.
 */
folder?: string, };

export type GraphView = { rows: Array<GraphRow>, 
/**
 * Lines passing rows without touching their nodes, as
 * `[lane, first row, last row, colour]`: a few per line, however
 * long, where a list per row would grow with rows × lanes.
 */
spans: Array<[number, number, number, number]>, width: number, branches: Array<GraphBranch>, active: BranchId, };

export type RewindAction = "restore" | "remove" | "recreate";

export type RewindFile = { path: string, action: RewindAction, 
/**
 * Unified diff from the file as it is to what it becomes (empty for
 * a binary file, or one too large to show).
 */
diff: string, binary: boolean, 
/**
 * Changed by the user outside Braid since that point: written only
 * when the user says so.
 */
changed_by_user: boolean, };

export type RewindPreview = { message_id: MessageId, files: Array<RewindFile>, 
/**
 * The turns (and stretches of the user's edits) whose changes it undoes.
 */
checkpoints: number, };

export type RewindOutcome = { note: MessageId, files: number, 
/**
 * Left as they are (the user's changes, not chosen to be overwritten).
 */
kept: Array<string>, };

export type LineCount = { added: number, removed: number, };

export type ChangeCount = { files: number, added: number, removed: number, };

export type TurnChangeCount = { question: MessageId, last: MessageId, count: ChangeCount, };

export type FileChange = "created" | "modified" | "deleted";

export type ChangeHunk = { 
/**
 * Its number in the file, from 0: how `undo_changes` names it.
 */
index: number, 
/**
 * Its unified diff, the `@@` line first.
 */
diff: string, added: number, removed: number, };

export type ChangedFile = { path: string, change: FileChange, 
/**
 * Not text, or too large to cut into hunks: undone as a whole.
 */
binary: boolean, hunks: Array<ChangeHunk>, added: number, removed: number, 
/**
 * The file no longer holds what the turn left (the user or a later
 * turn changed it): an undo is merged with what it holds, and a hunk
 * whose lines changed since is refused.
 */
changed_since: boolean, };

export type TurnChanges = { 
/**
 * The question the turn answered.
 */
question: MessageId, files: Array<ChangedFile>, };

export type UndoSelection = { path: string, hunks: Array<number> | null, };

export type CheckpointStorage = { 
/**
 * Checkpoints older than this many days are dropped (never the
 * newest change of a file in a conversation).
 */
keep_days: number, 
/**
 * Beyond this many megabytes of kept contents, the oldest go first.
 */
budget_mb: number, 
/**
 * The space the checkpoint store takes on disk now, in bytes.
 */
used_bytes: number, 
/**
 * Checkpoints kept now, in every conversation.
 */
checkpoints: number, };

export type ControlKind = { "kind": "mode_change", mode: string, } | { "kind": "branch_switch", from: BranchId, to: BranchId, } | { "kind": "summary", text: string, replaces: Array<MessageId>, } | { "kind": "recovery", interrupted_state: string, detail: string, } | { "kind": "notice", code: NoticeCode, text: string, } | { "kind": "merge", record: MergeRecord, } | { "kind": "files_restored", to: MessageId, files: number, kept?: Array<string>, undoes?: MessageId | null, changes_of?: MessageId | null, } | { "kind": "merge_undone", merge: MessageId, } | { "kind": "summary_undone", summary: MessageId, } | { "kind": "workflow", name: string, arguments: { [key in string]: string }, message: MessageId, outcome: WorkflowOutcome | null, };

export type MessageType = { "type": "text", role: Role, parts: Array<ContentPart>, } | { "type": "image", source: ImageSource, mode: ImageMode, vision_analysis: string | null, recognized_text: string | null, ocr_confidence: number | null, language: string | null, error: string | null, 
/**
 * How the image was actually read: `Vision` or `Ocr`.
 */
used?: ImageMode, 
/**
 * Why it was read another way than asked or hoped (the model
 * cannot see images; vision failed and OCR was used instead).
 */
fallback?: string, } | { "type": "file_reference", path: string, range: LineRange | null, content: string | null, status: FileRefStatus, error: string | null, } | { "type": "tool_request", 
/**
 * Text the assistant said before calling tools, if any.
 */
text: string | null, calls: Array<ToolCall>, } | { "type": "tool_result", 
/**
 * The id of the tool call this answers.
 */
request_id: CallId, status: ToolResultStatus, output: string, error: string | null, recoverable: boolean, duration_ms: number, finished_at: Timestamp, } | { "type": "system_control", control: ControlKind, } | { "type": "mcp_resource", server_name: string, resource_uri: string, content: string, mime_type: string | null, retrieved_at: Timestamp, } | { "type": "unknown", raw: unknown, };

export type MessageKind = "text" | "image" | "file_reference" | "tool_request" | "tool_result" | "system_control" | "mcp_resource" | "unknown";

export type TokenEncoding = "o200k" | "cl100k" | "estimate";

export type TokenCount = { encoding: TokenEncoding, count: number, };

export type TokenUsage = { prompt_tokens: number, completion_tokens: number, };

export type AnswerSpeed = { 
/**
 * From the request going out to the first token.
 */
first_token_ms: number, 
/**
 * From the first token to the last.
 */
streaming_ms: number, output_tokens: number, 
/**
 * `output_tokens` is the server's figure, not Braid's count.
 */
reported: boolean, };

export type WithheldOutput = { output: string, error: string | null, 
/**
 * The placeholders of the secrets the output may carry (or the call
 * used).
 */
secrets: Array<string>, 
/**
 * The user read it and let the model have it: the result's output
 * is what the tool printed again (the copy here is dropped).
 */
released: boolean, };

export type MessageMeta = { 
/**
 * Time the processing pipeline took for this message, in microseconds.
 */
processing_us?: number | null, 
/**
 * Tokens the provider reported for the response that produced this
 * message. Absent when the server reported none (never estimated here).
 */
usage?: TokenUsage | null, 
/**
 * What the message costs as it is sent, counted once when it was
 * stored (with the encoding of the model in use then).
 */
tokens?: TokenCount | null, 
/**
 * The answer stopped at the model's output limit: it is incomplete,
 * and Continue lets the model go on from where it was cut.
 */
cut?: boolean, 
/**
 * The user stopped the answer while it streamed: it is kept as far as
 * it got, and Continue lets the model go on from there.
 */
stopped?: boolean, 
/**
 * A merge's copy of this message of another branch: the original,
 * also when the copy was made from a copy (older stores may name the
 * copy in between; `braid_core::merge` follows the chain).
 */
copied_from?: MessageId, 
/**
 * The team member that said it (`None`: the user, or the
 * conversation's one model).
 */
author?: string, 
/**
 * How fast an answer came (absent for answers stored before this was
 * measured, and for those that streamed nothing).
 */
speed?: AnswerSpeed, 
/**
 * A tool's output kept from the model: the call used a secret (or
 * one used earlier), and what it printed may carry it. The result's
 * own output then says so; this holds what the tool printed, for
 * the user to read and release.
 */
withheld?: WithheldOutput, };

export type Message = { id: MessageId, created_at: Timestamp, schema_version: number, body: MessageType, meta?: MessageMeta, };

export type ContextStatus = { "state": "idle" } | { "state": "processing_user_message" } | { "state": "resolving_file_references" } | { "state": "enhancing_system_prompt" } | { "state": "reading_images", done: number, total: number, } | { "state": "preparing_llm_request" } | { "state": "connecting_to_llm" } | { "state": "awaiting_llm_first_chunk" } | { "state": "streaming_llm_response", chunks: number, chars: number, } | { "state": "processing_llm_response" } | { "state": "retrying_llm_request", attempt: number, max: number, retry_at: Timestamp, } | { "state": "parsing_tool_calls" } | { "state": "awaiting_tool_approval", pending_requests: Array<CallId>, tool_names: Array<string>, } | { "state": "executing_tool", tool_name: string, index: number, total: number, attempt: number, } | { "state": "collecting_tool_results" } | { "state": "processing_tool_results" } | { "state": "tool_auto_loop", depth: number, tools_executed: number, } | { "state": "summarizing" } | { "state": "awaiting_sub_agents", done: number, total: number, } | { "state": "cancelling" } | { "state": "failed", error_code: FailureCode, message: string, recoverable: boolean, };

export type StatusKind = "idle" | "processing_user_message" | "resolving_file_references" | "enhancing_system_prompt" | "reading_images" | "preparing_llm_request" | "connecting_to_llm" | "awaiting_llm_first_chunk" | "streaming_llm_response" | "processing_llm_response" | "retrying_llm_request" | "parsing_tool_calls" | "awaiting_tool_approval" | "executing_tool" | "collecting_tool_results" | "processing_tool_results" | "tool_auto_loop" | "summarizing" | "awaiting_sub_agents" | "cancelling" | "failed";

export type ErrorCode = "agent_busy" | "invalid_input" | "not_found" | "storage" | "provider" | "invalid_state" | "internal";

export type WireError = { code: ErrorCode, message: string, };

export type ApprovalDecision = "approve" | "deny" | "approve_all" | "approve_overwrite" | "always_allow";

export type Permission = "read" | "write" | "execute" | "network";

export type ToolApprovalPolicy = { "kind": "white_list", tools: Array<string>, } | { "kind": "limited_auto", max_depth: number, max_tools: number, } | { "kind": "manual" } | { "kind": "auto_all" } | { "kind": "sandboxed" };

export type AgentMode = "plan" | "act";

export type AgentRole = "assistant" | "planner";

export type SandboxLevel = "read_only" | "workspace_write" | "full_access";

export type Sandbox = { level: SandboxLevel, 
/**
 * Commands may use the network (off: not even 127.0.0.1).
 */
network: boolean, 
/**
 * The workspace's `.git` is writable too (commits, branches).
 */
git_writable: boolean, };

export type ToolSettings = { policy: ToolApprovalPolicy, 
/**
 * Always asked, whatever the policy or earlier answers.
 */
always_ask: Array<string>, 
/**
 * "Always allow" answers given in this conversation.
 */
always_allowed: Array<string>, 
/**
 * For tools whose definition is pinned (an MCP server's), the pin
 * each "Always allow" was given to: once the definition changes and
 * the user accepts it, the tool is asked again.
 */
allowed_pins: { [key in string]: string }, mode: AgentMode, role: AgentRole, 
/**
 * One tool call longer than this ends with a timeout result.
 */
timeout_ms: number, 
/**
 * The workspace is a broad folder (the home folder, `/`): read tools
 * are asked until the user approves one, whatever the policy but
 * "run everything".
 */
confirm_reads: boolean, 
/**
 * What `run_command` may touch.
 */
sandbox: Sandbox, };

export type ToolSource = { "kind": "builtin" } | { "kind": "mcp", server: string, } | { "kind": "agent" };

export type ToolSandbox = { "kind": "not_used" } | { "kind": "applied" } | { "kind": "missing", why: string, };

export type BlockedCommand = { call_id: CallId, 
/**
 * What the sandbox refused, in words.
 */
reason: string, 
/**
 * The blocked run's output (exit code, stdout, stderr).
 */
output: string, };

export type PromptPart = "base" | "branch_override" | "personal" | "untrusted" | "role" | "mode" | "workspace" | "instructions" | "tools" | "tool_examples" | "file_changes" | "continuation" | "team" | "sub_agent";

export type Payload = { "type": "text", text: string, } | { "type": "file_reference", path: string, range: LineRange | null, text: string | null, } | { "type": "image", source: ImageSource, mode: ImageMode | null, text: string | null, } | { "type": "workflow", name: string, arguments: { [key in string]: string }, } | { "type": "tool_result", call_id: CallId, output: string, is_error: boolean, } | { "type": "mcp_resource", server: string, uri: string, text: string | null, };

export type SendMessageRequest = { context_id: ContextId, payload: Payload, 
/**
 * The client's own data (a JSON object, at most 4 KB), given back in
 * the receipt; Braid does not read it.
 */
client_metadata?: Record<string, unknown>, 
/**
 * Wait in the conversation's queue when it is busy (otherwise a busy
 * conversation refuses the message).
 */
queue_if_busy: boolean, };

export type PayloadReceipt = { 
/**
 * The message stored (for a tool result: the tool call's request).
 */
message_id: MessageId, 
/**
 * It waits in the conversation's queue.
 */
queued: boolean, client_metadata?: Record<string, unknown>, };

export type Workflow = { name: string, description: string, parameters: Array<WorkflowParameter>, 
/**
 * The template, `{{name}}` where a parameter goes.
 */
body: string, 
/**
 * Where it was found (`workspace` or `config`), for the user.
 */
origin: string, };

export type WorkflowParameter = { name: string, description: string, 
/**
 * Used when the parameter is not given; `None`: it must be.
 */
default: string | null, };

export type WorkflowList = { workflows: Array<Workflow>, problems: Array<string>, };

export type WorkflowOutcome = { status: WorkflowStatus, 
/**
 * The model's last answer in the turn.
 */
answer: MessageId | null, 
/**
 * Tool results written in the turn.
 */
tool_results: number, 
/**
 * Why it failed.
 */
error: string | null, };

export type WorkflowStatus = "completed" | "failed" | "cancelled";

export type SentPart = { part: PromptPart, text: string, tokens: number, };

export type SentMessage = { id: MessageId, 
/**
 * `user`, `assistant` or `tool`, as the provider was told.
 */
role: string, kind: MessageKind, text: string, tokens: number, };

export type SentTool = { name: string, description: string, tokens: number, };

export type SentRequest = { sent_at: Timestamp, provider: string, model: string, 
/**
 * The system prompt, part by part; sent joined by blank lines.
 */
system: Array<SentPart>, messages: Array<SentMessage>, tools: Array<SentTool>, 
/**
 * `auto`, `none`, `required`, or the tool the user forced.
 */
tool_choice: string | null, max_tokens: number, temperature: number | null, 
/**
 * Counted with an estimate (not the model's own tokenizer).
 */
estimated: boolean, 
/**
 * Stored messages left out to fit the window.
 */
left_out: number, 
/**
 * The server answered nothing with the tools offered, so the same
 * request went again without tools (and without a tool choice).
 */
tools_dropped: boolean, 
/**
 * Tools not offered because the conversation did not call for them
 * (tools "as needed").
 */
tools_held_back: Array<string>, };

export type Team = { members: Array<TeamMember>, 
/**
 * What the team works on; at most [`TEAM_TASK_LIMIT`] bytes.
 */
task: string, 
/**
 * Messages before the current one each member sees.
 */
window: number, 
/**
 * The most context, in bytes, a member is given.
 */
byte_budget: number, };

export type TeamMember = { 
/**
 * How the others address it: `[NEXT:name]`.
 */
name: string, agent: AgentType, 
/**
 * A CSS colour for its name on its messages.
 */
colour: string, instruction: string, 
/**
 * A file in the workspace whose text follows the instruction.
 */
instruction_file?: string, 
/**
 * Its own window, in place of the team's (0: no context).
 */
window?: number, 
/**
 * A coding CLI's program, when it is not the usual name on PATH.
 */
program?: string, 
/**
 * A coding CLI runs each turn in its own copy of the workspace (a git
 * worktree in a repository), merged back when its turn ends.
 */
isolated: boolean, };

export type AgentType = { "kind": "claude-code" } | { "kind": "openai-codex" } | { "kind": "google-gemini" } | { "kind": "api", model: ModelChoice | null, } | { "kind": "other", name: string, };

export type TeamRoute = { running?: string, queue: Array<string>, 
/**
 * Agent turns since the user last spoke.
 */
agent_turns: number, 
/**
 * Turns this chain queued so far.
 */
queued_total: number, 
/**
 * Stopped after [`MAX_AGENT_TURNS`] in a row: Resume goes on.
 */
paused: boolean, };

export type TeamAction = { "kind": "skip", position: number, } | { "kind": "skip_running" } | { "kind": "stop" } | { "kind": "resume" };

export type MemberCheck = { name: string, ready: boolean, 
/**
 * What is wrong, and what to do about it.
 */
problem?: string, 
/**
 * The program found, for CLI members.
 */
program?: string, };

export type TeamView = { team?: Team, checks: Array<MemberCheck>, route: TeamRoute, 
/**
 * The task was longer than [`TEAM_TASK_LIMIT`] and was cut.
 */
warning?: string, };

export type SubTask = { 
/**
 * How the child is called in the parent's card and dialogs.
 */
name: string, instructions: string, 
/**
 * A model of the parent's provider (or `provider/model`); `None`: the
 * parent's model.
 */
model?: string, 
/**
 * Works in its own copy of the workspace (parallel lines of work never
 * write over each other); what it changed is merged back when it
 * submits.
 */
isolated: boolean, };

export type ChildOf = { parent: ContextId, 
/**
 * The parent's `spawn_agents` call.
 */
call_id: CallId, 
/**
 * The task's place in that call, from 0.
 */
index: number, name: string, turn_limit: number, 
/**
 * The copy of the parent's folder it works in, when it has its own.
 */
workspace?: string, };

export type ChildOutcome = { "kind": "submitted", result: string, } | { "kind": "failed", reason: string, };

export type IsolationKind = "git_worktree" | "copy";

export type ChildWorkspace = { folder: string, kind: IsolationKind, 
/**
 * Files merged into the parent's folder.
 */
merged: Array<string>, 
/**
 * Of those, the ones both changed in the same lines: written with
 * conflict markers (`<<<<<<<`), both sides kept.
 */
conflicts: Array<string>, 
/**
 * Changes not merged back (the child failed, or a binary or deleted
 * file both changed): the copy is kept at `folder` with them.
 */
kept: Array<string>, 
/**
 * Why the copy could not be merged back or removed, if so.
 */
problem?: string, };

export type ChildReport = { outcome: ChildOutcome, duration_ms: number, 
/**
 * Tokens the child's model read and wrote, as its servers reported.
 */
tokens: number, 
/**
 * What the model should know about how the child ran (a model asked
 * for that is not available, so the parent's ran it).
 */
note?: string, 
/**
 * Where a child with its own copy of the workspace worked, and what
 * of it came back.
 */
workspace?: ChildWorkspace, };

export type SubAgentView = { name: string, 
/**
 * Set once the child's conversation exists (it waits until then).
 */
context_id?: ContextId, report?: ChildReport, 
/**
 * Works in its own copy of the workspace.
 */
isolated: boolean, };

export type SubAgentsView = { call_id: CallId, agents: Array<SubAgentView>, };

export type ChildSummary = { context_id: ContextId, child: ChildOf, status: ContextStatus, 
/**
 * How it ended, once it has.
 */
outcome?: ChildOutcome, 
/**
 * What came back from its own copy of the workspace, once it has.
 */
returned?: ChildWorkspace, };

export type SubAgentLimits = { 
/**
 * Wall time from the child's start; past it, the child is stopped.
 */
time_limit_ms: number, 
/**
 * Model turns; one more (the grace turn) tells it to submit now.
 */
turn_limit: number, 
/**
 * Children running at once; the others wait.
 */
concurrency: number, };

export type CodebaseIndex = { 
/**
 * The workspace indexed.
 */
root: string, state: IndexState, 
/**
 * Files parsed so far of those to parse (a build after a restart
 * parses only what changed while Braid was closed).
 */
done: number, total: number, 
/**
 * Files and definitions in the index.
 */
files: number, 
/**
 * Files the last build read (the rest were unchanged since stored).
 */
parsed: number, symbols: number, 
/**
 * How long the last build took.
 */
build_ms: number, 
/**
 * Why the build failed.
 */
error: string | null, };

export type IndexState = "building" | "ready" | "cancelled" | "failed";

export type FileExcerpt = { path: string, 
/**
 * The line asked for (1-based).
 */
line: number, 
/**
 * The first line in `lines` (1-based).
 */
start_line: number, lines: Array<string>, total_lines: number, };

export type McpState = "starting" | "ready" | "failed" | "disabled" | "untrusted";

export type McpServerStatus = { name: string, 
/**
 * The command line, or the URL.
 */
transport: string, state: McpState, 
/**
 * Why it failed (or is starting again).
 */
reason: string | null, 
/**
 * Another attempt follows a failure on its own.
 */
retrying: boolean, 
/**
 * The last lines it wrote to stderr.
 */
stderr: Array<string>, 
/**
 * Its tools, by their catalogue names.
 */
tools: Array<string>, 
/**
 * How many times it became ready: more than once, it was restarted.
 */
ready_count: number, origin: McpOrigin, 
/**
 * The MCP protocol version agreed with it while ready (the stateless
 * `2026-07-28`, or an older one it fell back to).
 */
protocol: string | null, 
/**
 * Its limits, in milliseconds: to start, and for one call.
 */
startup_timeout_ms: number, call_timeout_ms: number, 
/**
 * Tools whose definition changed since it was first seen: left out
 * of the catalogue until the user accepts the new one.
 */
held: Array<HeldTool>, 
/**
 * Tools the catalogue refused (a name another source holds or that
 * looks like one), each with why.
 */
refused: Array<string>, };

export type HeldTool = { 
/**
 * Its catalogue name.
 */
name: string, description_before: string, description_now: string, 
/**
 * The input schemas, as pretty JSON.
 */
schema_before: string, schema_now: string, 
/**
 * Whether it said it only reads (what the sandboxed policy runs
 * without asking).
 */
read_only_before: boolean, read_only_now: boolean, 
/**
 * The name the server gave itself.
 */
server_before: string | null, server_now: string | null, };

export type McpSettings = { 
/**
 * Where the file is.
 */
path: string, 
/**
 * Its text, as saved.
 */
text: string, servers: Array<McpServerStatus>, 
/**
 * Why the saved file could not be used, if it cannot.
 */
error: string | null, 
/**
 * The workspace's own `.mcp.json`, when it has one.
 */
workspace: McpWorkspace | null, 
/**
 * The secrets the settings name (`${secret:NAME}` in `env` or
 * `headers`), and whether each is set. Their values never leave the
 * backend.
 */
secrets: Array<McpSecret>, };

export type McpResourceInfo = { server: string, uri: string, name: string, description: string | null, mime_type: string | null, };

export type McpPromptInfo = { server: string, name: string, description: string | null, arguments: Array<McpPromptArgument>, };

export type McpPromptArgument = { name: string, description: string | null, required: boolean, };

export type McpOrigin = "settings" | "workspace";

export type McpWorkspace = { path: string, trusted: boolean, 
/**
 * Why it cannot be used, if it cannot.
 */
error: string | null, };

export type McpSecret = { name: string, set: boolean, };

export type McpResourceTemplate = { server: string, uri_template: string, name: string, description: string | null, mime_type: string | null, 
/**
 * The template's variables, in order.
 */
variables: Array<string>, };

export type ToolSpec = { 
/**
 * At most [`MAX_TOOL_NAME`] bytes of `[A-Za-z0-9_-]` (what every
 * provider accepts).
 */
name: string, description: string, 
/**
 * JSON Schema of the arguments object.
 */
input_schema: unknown, permission: Permission, 
/**
 * Safe to run alongside other calls (reads).
 */
parallel_safe: boolean, 
/**
 * Example argument objects; they reach the model in the system prompt.
 */
examples: Array<unknown>, source: ToolSource, 
/**
 * Whether the tool's processes run in the command sandbox.
 */
sandbox: ToolSandbox, 
/**
 * A tool whose definition is pinned (an MCP server's): a hash of
 * what was pinned, which approvals are given to.
 */
pin?: string, };

export type ContextStrategy = { "kind": "recent_n", n: number, } | { "kind": "intelligent", keep_last: number, } | { "kind": "importance_scoring", keep_last: number, };

export type ToolUse = "as_needed" | "auto" | "on_request" | "off";

export type GenerationSettings = { 
/**
 * `None`: Auto for models known to call tools well, AsNeeded for the
 * others.
 */
tool_use: ToolUse | null, 
/**
 * 0 to 2.
 */
temperature: number | null, 
/**
 * The longest answer, in tokens; capped at the model's own limit.
 */
max_output_tokens: number | null, 
/**
 * An answer cut at the output limit goes on by itself this many
 * times (0: it stops and waits for Continue); `None`: once.
 */
continue_cut: number | null, };

export type ProviderKind = "open_ai_compatible" | "anthropic" | "gemini";

export type KeyLocation = "env" | "keychain" | "file";

export type ProviderView = { id: string, kind: ProviderKind, name: string, base_url: string, default_model: string | null, 
/**
 * `None`: no key stored (fine for local servers).
 */
key: KeyLocation | null, };

export type SettingsView = { providers: Array<ProviderView>, default_provider: string | null, 
/**
 * What answers when no provider is configured (e.g. "built-in echo"),
 * or `None`: then a message fails until a provider is added.
 */
fallback: string | null, 
/**
 * This Braid keeps built-in models (a shelf to manage, a hub to
 * download from); not when started with a model server or the echo.
 */
built_in_models: boolean, 
/**
 * What a new conversation starts with.
 */
conversations: ConversationDefaults, 
/**
 * What the user tells every conversation.
 */
instructions: StandingInstructions, };

export type KeyChange = { "action": "keep" } | { "action": "set", key: string, } | { "action": "clear" };

export type ProviderInput = { 
/**
 * Absent for a new provider: derived from the name.
 */
id: string | null, kind: ProviderKind, name: string, base_url: string, default_model: string | null, key: KeyChange, };

export type ModelSummary = { id: string, context_window: number, max_output_tokens: number, vision: boolean, };

export type ModelChoice = { provider_id: string, model: string, };

export type EffectiveModel = { 
/**
 * `None` for the fallback (e.g. the built-in echo).
 */
provider_id: string | null, provider_name: string, model: string, context_window: number, 
/**
 * The model looks at images; without it their text is read by OCR.
 */
vision: boolean, 
/**
 * The model is known to call tools well: tools go with every turn
 * unless the conversation says otherwise.
 */
tools: boolean, };

export type LocalServer = { 
/**
 * "llama.cpp", "Ollama", "LM Studio".
 */
name: string, base_url: string, models: Array<string>, };

export type LocalModel = { 
/**
 * The file name, which is how the model is named.
 */
name: string, 
/**
 * "SmolLM2-135M-Instruct (Q4_1)".
 */
label: string, bytes: number, 
/**
 * The one that answers.
 */
default: boolean, 
/**
 * Shipped with Braid (the installed package's starter): it cannot be
 * removed, only replaced as the default.
 */
bundled: boolean, 
/**
 * Another app's file run in place (a link): removing it from the
 * shelf leaves the file.
 */
linked: boolean, 
/**
 * What it would take at the window set, from its header.
 */
memory: MemoryEstimate | null, 
/**
 * Why its header cannot be read (a crafted or cut-short file): it is
 * not loaded, and cannot be made the default.
 */
unreadable: string | null, };

export type FoundModel = { 
/**
 * "LM Studio", "Jan" or "Ollama".
 */
app: string, 
/**
 * Its name once on the shelf.
 */
name: string, path: string, bytes: number, 
/**
 * Already on the shelf (linked or imported).
 */
on_shelf: boolean, memory: MemoryEstimate | null, 
/**
 * Why its header cannot be read: it is listed, never offered.
 */
unreadable: string | null, };

export type MemoryEstimate = { bytes: number, fit: MemoryFit, };

export type MemoryFit = "fits" | "tight" | "too_big";

export type LocalModelSettings = { 
/**
 * Tokens in the window (a model trained on fewer gets its own).
 */
context: number, 
/**
 * CPU threads for reading the prompt and writing the answer.
 */
threads: number, 
/**
 * Minutes without a question after which the model leaves memory,
 * loaded again by the next one (0: it stays).
 */
unload_after_minutes: number, 
/**
 * Layers run on the GPU (0: all on the CPU), where this build has a
 * GPU backend (`LocalModelsView::gpu`).
 */
gpu_layers: number, };

export type LocalModelsView = { 
/**
 * The folder imported models are copied to.
 */
dir: string, models: Array<LocalModel>, settings: LocalModelSettings, 
/**
 * Fitted to this machine: what "Reset" goes back to.
 */
defaults: LocalModelSettings, cores: number, 
/**
 * Models other apps downloaded, found where they keep them.
 */
found: Array<FoundModel>, 
/**
 * This build offloads layers to a GPU (built with a GPU backend and
 * a device found).
 */
gpu: boolean, };

export type HubModel = { 
/**
 * "owner/name".
 */
repo: string, downloads: number, likes: number, 
/**
 * "apache-2.0", as the repository states it.
 */
licence: string | null, 
/**
 * Its licence must be accepted on the hub before it can be fetched.
 */
gated: boolean, 
/**
 * When it last changed (ISO 8601), where the hub says.
 */
updated: string | null, };

export type HubRepo = { repo: string, licence: string | null, gated: boolean, files: Array<HubFile>, 
/**
 * Why the files carry no memory estimate, when they do not.
 */
note: string | null, };

export type HubFile = { 
/**
 * Its path in the repository.
 */
file: string, bytes: number, 
/**
 * The repository's SHA-256 of it, checked before it is offered.
 */
sha256: string | null, 
/**
 * "Q4_K_M", read from its name.
 */
quant: string | null, 
/**
 * At the built-in model's window, against the memory free now.
 */
memory: MemoryEstimate | null, 
/**
 * A file of this name is on the shelf already.
 */
on_shelf: boolean, };

export type MachineShape = { memory: number, available: number, cores: number, 
/**
 * A GPU's own memory, where one is found.
 */
gpu_memory: number | null, };

export type Recommended = { repo: string, file: string, 
/**
 * "Qwen2.5 1.5B Instruct".
 */
label: string, 
/**
 * What it is good for, in a few words.
 */
about: string, bytes: number, fit: MemoryFit, 
/**
 * Slower than a reader reads on this machine's cores.
 */
slow: boolean, 
/**
 * The one Braid would choose here.
 */
pick: boolean, on_shelf: boolean, };

export type Recommendations = { machine: MachineShape, models: Array<Recommended>, };

export type DownloadState = "queued" | "running" | "verifying" | "paused" | "failed" | "done";

export type Download = { id: string, repo: string, file: string, 
/**
 * Its name on the shelf.
 */
name: string, bytes: number, 
/**
 * Bytes on disk so far.
 */
done: number, 
/**
 * Bytes per second over the last seconds (0 when not running).
 */
speed: number, eta_seconds: number | null, state: DownloadState, error: string | null, 
/**
 * Becomes the model that answers once it is on the shelf.
 */
use_when_done: boolean, };

export type DownloadsView = { 
/**
 * The hub searched and downloaded from.
 */
endpoint: string, downloads: Array<Download>, };

export type ContextBreakdown = { model: string, window: number, reserved_output: number, 
/**
 * The sum of the parts sent.
 */
total: number, parts: Array<BreakdownPart>, 
/**
 * Stored messages fitting leaves out to make room, and their tokens.
 */
left_out: number, left_out_tokens: number, 
/**
 * The user's summary threshold (percent of the window; 0: only when
 * asked) and whether this request would be summarised first.
 */
summarize_at_percent: number, would_summarize: boolean, 
/**
 * Counted with an estimate (Braid lacks the model's tokenizer).
 */
estimated: boolean, 
/**
 * Every part and the whole were counted by the model's server as it
 * will read the request (the total is its own count).
 */
counted_by_server: boolean, 
/**
 * Why nothing could be sent (the newest message alone is too long).
 */
too_large?: string, };

export type BreakdownPart = { category: BreakdownCategory, tokens: number, items: Array<BreakdownItem>, };

export type BreakdownCategory = "base_prompt" | "instructions" | "team" | "tools" | "summary" | "messages" | "files" | "images" | "resources" | "draft" | "chat_format";

export type BreakdownItem = { label: string, tokens: number, 
/**
 * Sent with the next request (false: left out, or held back).
 */
sent: boolean, message?: MessageId, actions: Array<BreakdownAction>, };

export type BreakdownAction = { "kind": "drop_tools", group: string, } | { "kind": "offer_tools", group: string, } | { "kind": "keep", message: MessageId, } | { "kind": "unkeep", message: MessageId, } | { "kind": "leave_out", message: MessageId, } | { "kind": "include", message: MessageId, } | { "kind": "summarize_up_to", message: MessageId, } | { "kind": "undo_summary", message: MessageId, };

export type CompactScope = { "kind": "all" } | { "kind": "up_to", message: MessageId, } | { "kind": "from", message: MessageId, };

export type SummaryPreview = { text: string, replaces: Array<MessageId>, 
/**
 * What the user asked the summary to keep, if anything.
 */
instructions?: string, };

export type ConversationDefaults = { strategy: ContextStrategy | null, 
/**
 * Percent of the window (50 to 100), or 0: only when asked.
 */
summarize_at_percent: number | null, continue_cut: number | null, model: ModelChoice | null, tool_policy: ToolApprovalPolicy | null, sandbox: Sandbox | null, 
/**
 * The folder a conversation started without one works in (else the
 * one Braid was started in).
 */
working_dir: string | null, };

export type StandingInstructions = { about_me: string, how_to_answer: string, };

export type StoredImage = { id: string, media_type: string, width: number, height: number, bytes: number, 
/**
 * The file name it came with, if any (shown on its card).
 */
name?: string, };

export type ImageAttachment = { source: ImageSource, mode: ImageMode, };

export type ImageData = { media_type: string, data: string, };

export type NewMessage = { body: MessageType, 
/**
 * Makes the model call this tool in its first answer (the composer's
 * `/tool name …`); it must be a tool the mode offers.
 */
force_tool?: string, 
/**
 * Images sent with the message (from `store_image`); each becomes an
 * Image message just before it, read by vision or OCR first.
 */
images: Array<ImageAttachment>, };

export type Command = { "type": "create_context", title: string | null, working_dir: string | null, } | { "type": "set_working_dir", context_id: ContextId, working_dir: string, } | { "type": "default_working_dir" } | { "type": "get_mcp_settings" } | { "type": "save_mcp_settings", text: string, } | { "type": "restart_mcp_server", name: string, } | { "type": "accept_tool_definition", server: string, tool: string, } | { "type": "list_mcp_resources" } | { "type": "list_mcp_prompts" } | { "type": "list_mcp_templates" } | { "type": "trust_workspace_mcp", trusted: boolean, } | { "type": "set_mcp_secret", name: string, value: string | null, } | { "type": "get_mcp_prompt", server: string, name: string, arguments: { [key in string]: string }, } | { "type": "list_contexts" } | { "type": "load_context", context_id: ContextId, } | { "type": "delete_context", context_id: ContextId, } | { "type": "send_message", context_id: ContextId, message: NewMessage, queue_if_busy: boolean, } | { "type": "send_payload", request: SendMessageRequest, } | { "type": "list_workflows", context_id: ContextId, } | { "type": "unqueue", context_id: ContextId, message_id: MessageId, } | { "type": "edit_queued", context_id: ContextId, message_id: MessageId, change: QueueChange, } | { "type": "cancel", context_id: ContextId, } | { "type": "interrupt", context_id: ContextId, } | { "type": "retry", context_id: ContextId, } | { "type": "continue", context_id: ContextId, } | { "type": "decide_tool_call", context_id: ContextId, call_id: CallId, decision: ApprovalDecision, reason: string | null, } | { "type": "create_branch", context_id: ContextId, from_message: MessageId, name: string, system_prompt: string | null, } | { "type": "fork_before", context_id: ContextId, message: MessageId, name: string, } | { "type": "switch_branch", context_id: ContextId, branch_id: BranchId, } | { "type": "preview_switch_files", context_id: ContextId, branch_id: BranchId, } | { "type": "switch_branch_with_files", context_id: ContextId, branch_id: BranchId, overwrite: Array<string>, } | { "type": "rename_branch", context_id: ContextId, branch_id: BranchId, name: string, } | { "type": "set_branch_prompt", context_id: ContextId, branch_id: BranchId, system_prompt: string | null, } | { "type": "set_branch_model", context_id: ContextId, branch_id: BranchId, model: ModelChoice | null, } | { "type": "delete_branch", context_id: ContextId, branch_id: BranchId, } | { "type": "isolate_branch", context_id: ContextId, branch_id: BranchId, } | { "type": "remove_branch_copy", context_id: ContextId, branch_id: BranchId, discard: boolean, } | { "type": "preview_merge", context_id: ContextId, options: MergeOptions, } | { "type": "merge", context_id: ContextId, options: MergeOptions, } | { "type": "undo_merge", context_id: ContextId, merge: MessageId, } | { "type": "preview_rewind", context_id: ContextId, message_id: MessageId, } | { "type": "rewind_files", context_id: ContextId, message_id: MessageId, overwrite: Array<string>, } | { "type": "undo_rewind", context_id: ContextId, note: MessageId, } | { "type": "turn_changes", context_id: ContextId, message_id: MessageId, } | { "type": "undo_changes", context_id: ContextId, message_id: MessageId, files: Array<UndoSelection>, } | { "type": "changed_turns", context_id: ContextId, } | { "type": "draft_merge_summary", context_id: ContextId, source: BranchId, } | { "type": "branch_graph", context_id: ContextId, } | { "type": "rename_context", context_id: ContextId, title: string, } | { "type": "export_context", context_id: ContextId, format: ExportFormat, with_secrets: boolean, } | { "type": "import_context", text: string, } | { "type": "keep_in_context", context_id: ContextId, message_id: MessageId, keep: boolean, } | { "type": "release_output", context_id: ContextId, message_id: MessageId, } | { "type": "pin_context", context_id: ContextId, pinned: boolean, } | { "type": "search_conversations", query: string, limit: number | null, } | { "type": "set_context_model", context_id: ContextId, model: ModelChoice | null, } | { "type": "get_settings" } | { "type": "get_checkpoint_storage" } | { "type": "set_checkpoint_storage", keep_days: number, budget_mb: number, } | { "type": "save_provider", provider: ProviderInput, } | { "type": "remove_provider", provider_id: string, } | { "type": "set_default_provider", provider_id: string, } | { "type": "set_conversation_defaults", defaults: ConversationDefaults, } | { "type": "set_standing_instructions", instructions: StandingInstructions, } | { "type": "export_settings" } | { "type": "import_settings", text: string, } | { "type": "test_provider", provider: ProviderInput, } | { "type": "list_models", provider_id: string, } | { "type": "detect_local_servers" } | { "type": "list_local_models" } | { "type": "import_local_model", path: string, } | { "type": "link_local_model", path: string, } | { "type": "remove_local_model", name: string, } | { "type": "set_default_local_model", name: string, } | { "type": "set_local_model_settings", settings: LocalModelSettings, } | { "type": "search_hub", query: string, } | { "type": "hub_repo", repo: string, } | { "type": "recommended_models" } | { "type": "list_downloads" } | { "type": "download_model", repo: string, file: string, use_when_done: boolean, } | { "type": "pause_download", id: string, } | { "type": "resume_download", id: string, } | { "type": "cancel_download", id: string, } | { "type": "set_hub_endpoint", endpoint: string, } | { "type": "list_tools" } | { "type": "set_tool_policy", context_id: ContextId, policy: ToolApprovalPolicy, always_ask: Array<string> | null, } | { "type": "set_sandbox", context_id: ContextId, sandbox: Sandbox, } | { "type": "set_generation", context_id: ContextId, settings: GenerationSettings, } | { "type": "set_mode", context_id: ContextId, mode: AgentMode, } | { "type": "set_role", context_id: ContextId, role: AgentRole, } | { "type": "get_sent_request", context_id: ContextId, } | { "type": "set_team", context_id: ContextId, team: Team | null, } | { "type": "get_team", context_id: ContextId, } | { "type": "steer_team", context_id: ContextId, action: TeamAction, } | { "type": "list_children", context_id: ContextId, } | { "type": "get_codebase_index", context_id: ContextId, } | { "type": "cancel_codebase_index", context_id: ContextId, } | { "type": "rebuild_codebase_index", context_id: ContextId, } | { "type": "read_workspace_file", context_id: ContextId, path: string, line: number, } | { "type": "list_workspace_files", context_id: ContextId, query: string, limit: number | null, } | { "type": "set_context_strategy", context_id: ContextId, strategy: ContextStrategy, summarize_at_percent: number | null, } | { "type": "warm_up", context_id: ContextId, } | { "type": "context_breakdown", context_id: ContextId, draft: string, } | { "type": "compact_context", context_id: ContextId, instructions: string | null, scope: CompactScope, preview: boolean, } | { "type": "apply_summary", context_id: ContextId, text: string | null, } | { "type": "discard_summary", context_id: ContextId, } | { "type": "edit_summary", context_id: ContextId, message_id: MessageId, text: string, } | { "type": "undo_summary", context_id: ContextId, message_id: MessageId, } | { "type": "set_tool_group", context_id: ContextId, group: string, offered: boolean, } | { "type": "leave_out_of_context", context_id: ContextId, message_id: MessageId, out: boolean, } | { "type": "store_image", data: string, name: string | null, } | { "type": "read_image", id: string, } | { "type": "retry_image", context_id: ContextId, message_id: MessageId, mode: ImageMode | null, };

export type SendReceipt = { message_id: MessageId, 
/**
 * True when the context was busy and the message waits in its queue.
 */
queued: boolean, };

export type ContextSummary = { id: ContextId, title: string, working_dir: string, created_at: Timestamp, updated_at: Timestamp, status: ContextStatus, message_count: number, 
/**
 * The conversation's own model; `None` follows the default.
 */
model: ModelChoice | null, 
/**
 * Kept at the top of the conversation list.
 */
pinned: boolean, 
/**
 * Every branch, oldest first, so the list can show them under the
 * conversation rather than as chats of their own.
 */
branches: Array<BranchLabel>, 
/**
 * The branch in use.
 */
active_branch: BranchId, };

export type BranchSummary = { id: BranchId, name: string, parent: BranchId | null, fork_point: MessageId | null, message_count: number, 
/**
 * The branch's own system prompt, used in place of the
 * conversation's; `None`: the conversation's.
 */
system_prompt: string | null, 
/**
 * The branch's own model; `None`: the conversation's.
 */
model: ModelChoice | null, 
/**
 * Its own copy of the workspace, where its tools work while it is in
 * use; `None`: the conversation's folder.
 */
folder?: string, };

export type BranchLabel = { id: BranchId, name: string, };

export type MessageVersions = { message: MessageId, versions: Array<MessageVersion>, };

export type QueueChange = { "kind": "edit", text: string, } | { "kind": "move", to: number, } | { "kind": "send_now" };

export type MessageVersion = { message: MessageId, branch: BranchId, };

export type FileState = "fresh" | "changed_outside" | "deleted";

export type SearchHit = { context_id: ContextId, 
/**
 * The conversation's title.
 */
title: string, 
/**
 * The message that matched; `None` when the title did.
 */
message_id: MessageId | null, 
/**
 * A branch holding the message, the one in use when it does: switch
 * to it to open the message.
 */
branch_id: BranchId | null, 
/**
 * The matching line: the words found with some around them.
 */
snippet: Array<SnippetPart>, 
/**
 * When the message was written (the title: last changed).
 */
at: Timestamp, };

export type SnippetPart = { text: string, hit: boolean, };

export type FileInPlay = { 
/**
 * Relative to the workspace.
 */
path: string, state: FileState, 
/**
 * The change was found when the conversation was opened: it happened
 * while Braid was closed.
 */
while_closed: boolean, };

export type OverwriteReason = "not_read" | "changed_outside";

export type OverwriteRisk = { call_id: CallId, 
/**
 * Relative to the workspace.
 */
path: string, reason: OverwriteReason, };

export type PromptedCall = { call_id: CallId, 
/**
 * Where the text came from: "a tool result", "the file notes.md".
 */
source: string, 
/**
 * The words that asked, cut short.
 */
excerpt: string, };

export type SecretUse = { call_id: CallId, placeholder: string, 
/**
 * What the placeholder says of the secret (`openai-key`,
 * `database-url`…).
 */
kind: string, 
/**
 * False: it stands for no secret Braid knows (from before the
 * filter's key was replaced, or made up), and the call is refused.
 */
known: boolean, };

export type WritePreview = { call_id: CallId, 
/**
 * Relative to the workspace.
 */
path: string, 
/**
 * The file does not exist yet.
 */
new_file: boolean, 
/**
 * A unified diff against the file on disk (3 lines of context, at
 * most 400 lines); empty when nothing would change.
 */
diff: string, 
/**
 * Why the tool would refuse the call as it stands, if it would.
 */
problem: string | null, };

export type ContextUsage = { window: number, system: number, tools: number, messages: number, reserved_output: number, 
/**
 * Messages sent, and stored ones left out to fit.
 */
sent_messages: number, left_out: number, 
/**
 * The references, images and resources among those left out: the
 * chat marks each, as the model did not see it.
 */
left_out_references: Array<MessageId>, 
/**
 * Counted with an estimate (the model's tokenizer is not one Braid
 * has), so the figures are approximate.
 */
estimated: boolean, 
/**
 * Tools not offered because the message did not call for them
 * (tools "as needed"); "Tools: always" sends them.
 */
tools_held_back: Array<string>, };

export type Draft = { message_id: MessageId, text: string, };

export type ContextSnapshot = { summary: ContextSummary, active_branch: BranchId, branches: Array<BranchSummary>, queued: Array<Message>, messages: Array<Message>, 
/**
 * True when `messages` holds only the tail of the branch.
 */
truncated: boolean, 
/**
 * Where the next request goes; `None` when no provider is set up.
 */
effective_model: EffectiveModel | null, tools: ToolSettings, strategy: ContextStrategy, summarize_at_percent: number, 
/**
 * Tools on a normal turn, temperature, longest answer.
 */
generation: GenerationSettings, 
/**
 * Whether tools go with a normal turn for this model (the setting or,
 * when it is empty, the model's default).
 */
tool_use: ToolUse, 
/**
 * The files the agent read or wrote, most recent first, and whether
 * each changed outside Braid since.
 */
files: Array<FileInPlay>, 
/**
 * Pending writes that would replace what the model has not seen.
 */
overwrites: Array<OverwriteRisk>, 
/**
 * What each pending write would change.
 */
previews: Array<WritePreview>, 
/**
 * Pending calls that text from a tool, a file or a server asked for.
 */
prompted: Array<PromptedCall>, 
/**
 * The secrets pending calls would run with.
 */
secret_uses: Array<SecretUse>, 
/**
 * Pending calls of tools allowed always here whose definition
 * changed since (the user accepted the server's new one): what
 * changed, by the tool's name.
 */
tool_changes: Array<HeldTool>, 
/**
 * The command the sandbox just stopped, while the user decides.
 */
blocked: BlockedCommand | null, 
/**
 * How the last request filled the window, from Braid's own counts;
 * `None` before the first request since the app started.
 */
context: ContextUsage | null, 
/**
 * References and images the user keeps in what is sent.
 */
kept: Array<MessageId>, 
/**
 * A team conversation's members and task.
 */
team?: Team, 
/**
 * The route of a team chain running or paused.
 */
route?: TeamRoute, 
/**
 * The running `spawn_agents` call's children.
 */
sub_agents?: SubAgentsView, 
/**
 * A sub-agent's parent and task.
 */
child?: ChildOf, 
/**
 * Tool groups the user stopped offering in this conversation.
 */
dropped_tools: Array<string>, 
/**
 * Messages the user left out of what is sent.
 */
left_out: Array<MessageId>, 
/**
 * A summary made on request, waiting for approval.
 */
summary_preview?: SummaryPreview, 
/**
 * Messages of the branch in use that have other versions on other
 * branches (an edited question, an answer written again).
 */
versions: Array<MessageVersions>, 
/**
 * The answer being written, as streamed so far: a client that opens
 * the conversation mid-answer starts from it, then adds the deltas.
 */
draft?: Draft, };

export type ExportFormat = { "kind": "json" } | { "kind": "markdown", all_branches: boolean, };

export type ExportedFile = { 
/**
 * A file name from the title (`.braid.json` or `.md`).
 */
file_name: string, media_type: string, text: string, };

export type MessageChange = { "change": "created" } | { "change": "status_changed", status: string, } | { "change": "completed" };

export type MessageLifecycle = { message_id: MessageId, kind: MessageKind, change: MessageChange, 
/**
 * The message as stored after the change, when it is on the branch in
 * use and small (`braid_core::events`): a client puts it in place
 * instead of loading the branch again.
 */
message?: Message, 
/**
 * Stored and on the branch in use, but too large to travel here (this
 * event stays small): a client that shows it loads it. Neither this
 * nor `message`: not stored yet (a streamed answer starting) or on
 * another branch.
 */
withheld: boolean, };

export type QueuedPreview = { message_id: MessageId, 
/**
 * At most 120 characters of the message.
 */
preview: string, };

export type Notice = { code: NoticeCode, message: string, };

export type UpdateMetadata = { 
/**
 * Messages waiting to be sent when the context is Idle. Always present,
 * so a queue is never hidden.
 */
queue: Array<QueuedPreview>, notice?: Notice | null, 
/**
 * A team conversation's route of turns, while a chain runs or waits.
 */
team?: TeamRoute, 
/**
 * The sub-agents of the running `spawn_agents` call.
 */
sub_agents?: SubAgentsView, };

export type ContextUpdate = { context_id: ContextId, current_state: ContextStatus, 
/**
 * Present when this update is a change of state.
 */
previous_state: ContextStatus | null, message: MessageLifecycle | null, timestamp: Timestamp, metadata: UpdateMetadata, };

export type ContentDelta = { context_id: ContextId, message_id: MessageId, 
/**
 * 1 for the first delta of a message, growing by one.
 */
sequence: number, delta: string, is_final: boolean, };

export type ContentFinal = { context_id: ContextId, message_id: MessageId, 
/**
 * The sequence number after the last delta.
 */
sequence: number, is_final: boolean, };

export type BraidEvent = { "event": "context_update" } & ContextUpdate | { "event": "content_delta" } & ContentDelta | { "event": "content_final" } & ContentFinal;

/** The wording of each state (`StatusKind::wording`); `{field}` is filled from the state. */
export const STATUS_WORDING: Record<StatusKind, string> = {
  "idle": "Idle",
  "processing_user_message": "Processing message…",
  "resolving_file_references": "Resolving file references…",
  "enhancing_system_prompt": "Preparing system prompt…",
  "reading_images": "Reading images ({done}/{total} done)",
  "preparing_llm_request": "Preparing request…",
  "connecting_to_llm": "Connecting…",
  "awaiting_llm_first_chunk": "Waiting for the first token…",
  "streaming_llm_response": "Streaming ({chunks} chunks, {chars} chars)",
  "processing_llm_response": "Processing response…",
  "retrying_llm_request": "Retrying in {secs} s ({attempt}/{max})",
  "parsing_tool_calls": "Parsing tool calls…",
  "awaiting_tool_approval": "Awaiting approval: {tool_names}",
  "executing_tool": "Executing tool {index}/{total}: {tool_name}",
  "collecting_tool_results": "Collecting tool results…",
  "processing_tool_results": "Processing tool results…",
  "tool_auto_loop": "Auto-processing (round {depth}, {tools_executed} tools executed)",
  "summarizing": "Summarising older messages…",
  "awaiting_sub_agents": "Waiting for sub-agents ({done}/{total} done)",
  "cancelling": "Cancelling…",
  "failed": "Failed: {message}",
};

/** Notices after which Continue lets the model go on (`NoticeCode::CONTINUABLE`). */
export const CONTINUABLE_NOTICES: NoticeCode[] = ["loop_limit", "loop_detected", "interrupted", "answer_cut"];

/** What each command is answered with (`command/list.rs`). */
export type CommandResponses = {
  create_context: ContextSummary,
  set_working_dir: ContextSummary,
  default_working_dir: string,
  get_mcp_settings: McpSettings,
  save_mcp_settings: McpSettings,
  restart_mcp_server: void,
  accept_tool_definition: McpSettings,
  list_mcp_resources: Array<McpResourceInfo>,
  list_mcp_prompts: Array<McpPromptInfo>,
  list_mcp_templates: Array<McpResourceTemplate>,
  trust_workspace_mcp: McpSettings,
  set_mcp_secret: McpSettings,
  get_mcp_prompt: string,
  list_contexts: Array<ContextSummary>,
  load_context: ContextSnapshot,
  delete_context: void,
  send_message: SendReceipt,
  send_payload: PayloadReceipt,
  list_workflows: WorkflowList,
  unqueue: void,
  edit_queued: void,
  cancel: void,
  interrupt: void,
  retry: void,
  continue: void,
  decide_tool_call: void,
  create_branch: BranchId,
  fork_before: BranchId,
  switch_branch: void,
  preview_switch_files: RewindPreview,
  switch_branch_with_files: RewindOutcome,
  rename_branch: void,
  set_branch_prompt: void,
  set_branch_model: void,
  delete_branch: void,
  isolate_branch: string,
  remove_branch_copy: void,
  preview_merge: MergePreview,
  merge: MessageId,
  undo_merge: void,
  preview_rewind: RewindPreview,
  rewind_files: RewindOutcome,
  undo_rewind: RewindOutcome,
  turn_changes: TurnChanges,
  undo_changes: RewindOutcome,
  changed_turns: Array<TurnChangeCount>,
  draft_merge_summary: string,
  branch_graph: GraphView,
  rename_context: ContextSummary,
  export_context: ExportedFile,
  import_context: Array<ContextSummary>,
  keep_in_context: void,
  release_output: void,
  pin_context: void,
  search_conversations: Array<SearchHit>,
  set_context_model: ContextSummary,
  get_settings: SettingsView,
  get_checkpoint_storage: CheckpointStorage,
  set_checkpoint_storage: CheckpointStorage,
  save_provider: SettingsView,
  remove_provider: SettingsView,
  set_default_provider: SettingsView,
  set_conversation_defaults: SettingsView,
  set_standing_instructions: SettingsView,
  export_settings: string,
  import_settings: SettingsView,
  test_provider: Array<ModelSummary>,
  list_models: Array<ModelSummary>,
  detect_local_servers: Array<LocalServer>,
  list_local_models: LocalModelsView,
  import_local_model: LocalModelsView,
  link_local_model: LocalModelsView,
  remove_local_model: LocalModelsView,
  set_default_local_model: LocalModelsView,
  set_local_model_settings: LocalModelsView,
  search_hub: Array<HubModel>,
  hub_repo: HubRepo,
  recommended_models: Recommendations,
  list_downloads: DownloadsView,
  download_model: DownloadsView,
  pause_download: DownloadsView,
  resume_download: DownloadsView,
  cancel_download: DownloadsView,
  set_hub_endpoint: DownloadsView,
  list_tools: Array<ToolSpec>,
  set_tool_policy: ToolSettings,
  set_sandbox: ToolSettings,
  set_generation: GenerationSettings,
  set_mode: void,
  set_role: ToolSettings,
  get_sent_request: SentRequest | null,
  set_team: TeamView,
  get_team: TeamView,
  steer_team: void,
  list_children: Array<ChildSummary>,
  get_codebase_index: CodebaseIndex | null,
  cancel_codebase_index: CodebaseIndex | null,
  rebuild_codebase_index: CodebaseIndex | null,
  read_workspace_file: FileExcerpt,
  list_workspace_files: Array<string>,
  set_context_strategy: void,
  warm_up: void,
  context_breakdown: ContextBreakdown,
  compact_context: void,
  apply_summary: void,
  discard_summary: void,
  edit_summary: void,
  undo_summary: void,
  set_tool_group: void,
  leave_out_of_context: void,
  store_image: StoredImage,
  read_image: ImageData,
  retry_image: void,
};

/** The answer to `C`. */
export type ResponseTo<C extends Command> = CommandResponses[C["type"]];

/** Every command as a method, as `command/list.rs` defines it. */
export interface Commands {
  /**
   * The new conversation; `working_dir` is the runtime's default
   * when absent (changed with `SetWorkingDir`).
   */
  createContext(title?: string | null, workingDir?: string | null): Promise<ContextSummary>;
  /**
   * Only while idle: the tools work in this folder from the next
   * call; it must exist.
   */
  setWorkingDir(contextId: ContextId, workingDir: string): Promise<ContextSummary>;
  /**
   * The folder a conversation created without one works in.
   */
  defaultWorkingDir(): Promise<string>;
  /**
   * The MCP settings file and every server's state.
   */
  getMcpSettings(): Promise<McpSettings>;
  /**
   * Checks and saves the file, then starts, stops or restarts the
   * servers that changed; a file that cannot be used is refused and
   * nothing changes.
   */
  saveMcpSettings(text: string): Promise<McpSettings>;
  /**
   * The server starts again from the beginning.
   */
  restartMcpServer(name: string): Promise<void>;
  /**
   * Accepts a held tool's new definition: it joins the catalogue.
   */
  acceptToolDefinition(server: string, tool: string): Promise<McpSettings>;
  /**
   * Every ready MCP server's resources (`@server:uri` adds one to a
   * message).
   */
  listMcpResources(): Promise<Array<McpResourceInfo>>;
  /**
   * Every ready MCP server's prompts.
   */
  listMcpPrompts(): Promise<Array<McpPromptInfo>>;
  /**
   * Every ready MCP server's resource templates (URIs with
   * variables).
   */
  listMcpTemplates(): Promise<Array<McpResourceTemplate>>;
  /**
   * Trusts (or no longer trusts) the workspace's `.mcp.json` as it
   * is now, and starts (or stops) its servers.
   */
  trustWorkspaceMcp(trusted: boolean): Promise<McpSettings>;
  /**
   * Sets a secret the MCP settings name as `${secret:NAME}` (kept
   * in the keychain, or the private key file), or removes it when
   * `value` is null; servers using it restart. Its value is never
   * sent back.
   */
  setMcpSecret(name: string, value?: string | null): Promise<McpSettings>;
  /**
   * The prompt's text, filled in with its arguments, for the
   * composer.
   */
  getMcpPrompt(server: string, name: string, args: { [key in string]: string }): Promise<string>;
  /**
   * Every conversation, most recently updated first.
   */
  listContexts(): Promise<Array<ContextSummary>>;
  loadContext(contextId: ContextId): Promise<ContextSnapshot>;
  /**
   * The conversation and all its messages are gone.
   */
  deleteContext(contextId: ContextId): Promise<void>;
  /**
   * Refused with `agent_busy` when the conversation is busy and
   * `queue_if_busy` is false. Progress comes as events.
   */
  sendMessage(contextId: ContextId, message: NewMessage, queueIfBusy: boolean): Promise<SendReceipt>;
  /**
   * One typed payload (text, a file reference, an image, a
   * workflow, a tool result, an MCP resource); see
   * `docs/send-message.schema.json`.
   */
  sendPayload(request: SendMessageRequest): Promise<PayloadReceipt>;
  /**
   * The workflows the conversation can run (its folder's, then the
   * app's), and files that are not ones.
   */
  listWorkflows(contextId: ContextId): Promise<WorkflowList>;
  /**
   * Takes a queued message back before it is sent.
   */
  unqueue(contextId: ContextId, messageId: MessageId): Promise<void>;
  /**
   * Changes a queued message before it is sent: its text, its
   * place, or sends it now (interrupting the answer being
   * written, which is kept).
   */
  editQueued(contextId: ContextId, messageId: MessageId, change: QueueChange): Promise<void>;
  /**
   * Stops whatever runs, at once; no partial answer is kept.
   */
  cancel(contextId: ContextId): Promise<void>;
  /**
   * The running step (stream or tool) finishes, nothing further
   * starts; what was done is kept and Continue goes on.
   */
  interrupt(contextId: ContextId): Promise<void>;
  /**
   * From Failed: sends the last request again.
   */
  retry(contextId: ContextId): Promise<void>;
  /**
   * After the tool loop stopped (its limit, a repeat, an
   * interrupt): lets the model go on from where it was.
   */
  continueLoop(contextId: ContextId): Promise<void>;
  /**
   * With a denial, `reason` is told to the model.
   */
  decideToolCall(contextId: ContextId, callId: CallId, decision: ApprovalDecision, reason?: string | null): Promise<void>;
  /**
   * A branch sharing every message up to `from_message`; answered
   * by its id.
   */
  createBranch(contextId: ContextId, fromMessage: MessageId, name: string, systemPrompt?: string | null): Promise<BranchId>;
  /**
   * A branch holding everything before `message` (a tool round
   * goes whole), to send an edited question again or have an
   * answer written again; answered by its id. Not switched to.
   */
  forkBefore(contextId: ContextId, message: MessageId, name: string): Promise<BranchId>;
  /**
   * Records a BranchSwitch message on the new branch.
   */
  switchBranch(contextId: ContextId, branchId: BranchId): Promise<void>;
  /**
   * What switching to `branch_id` with its files would write: the
   * files back as they were at the branch's last message, each
   * with its diff; files the user changed since are flagged.
   * Changes nothing.
   */
  previewSwitchFiles(contextId: ContextId, branchId: BranchId): Promise<RewindPreview>;
  /**
   * Switches to `branch_id` and brings its files along: as they
   * were at its last message (journaled; undone with
   * `undo_rewind`). Files the user changed since are kept
   * unless named in `overwrite`. Only at rest.
   */
  switchBranchWithFiles(contextId: ContextId, branchId: BranchId, overwrite: Array<string>): Promise<RewindOutcome>;
  /**
   * 1 to 80 characters.
   */
  renameBranch(contextId: ContextId, branchId: BranchId, name: string): Promise<void>;
  /**
   * The branch's own system prompt, from the next request on;
   * none or empty goes back to the conversation's.
   */
  setBranchPrompt(contextId: ContextId, branchId: BranchId, systemPrompt?: string | null): Promise<void>;
  /**
   * Answers on the branch come from this model from the next
   * request on; none follows the conversation's again. The
   * provider must exist.
   */
  setBranchModel(contextId: ContextId, branchId: BranchId, model?: ModelChoice | null): Promise<void>;
  /**
   * The branch and the messages only it holds are gone; its forks
   * hang from its parent. Not main, not the branch in use. Its
   * own copy of the workspace goes too; refused while that holds
   * changes the conversation's folder does not have.
   */
  deleteBranch(contextId: ContextId, branchId: BranchId): Promise<void>;
  /**
   * Gives the branch its own copy of the conversation's folder
   * as it is now (a git worktree in a repository): its tools work
   * there while it is in use. Not main. Answered with the copy.
   */
  isolateBranch(contextId: ContextId, branchId: BranchId): Promise<string>;
  /**
   * Removes the branch's own copy: its tools work in the
   * conversation's folder again. Refused, naming them, while the
   * copy holds changes the folder does not have, unless `discard`.
   */
  removeBranchCopy(contextId: ContextId, branchId: BranchId, discard: boolean): Promise<void>;
  /**
   * What merging the source into the branch in use would do.
   * Changes nothing.
   */
  previewMerge(contextId: ContextId, options: MergeOptions): Promise<MergePreview>;
  /**
   * Merges into the branch in use; answered by the merge card's
   * id, or refused with the preview's reason when it cannot be
   * applied as asked.
   */
  merge(contextId: ContextId, options: MergeOptions): Promise<MessageId>;
  /**
   * The merge whose card is `merge` is taken back.
   */
  undoMerge(contextId: ContextId, merge: MessageId): Promise<void>;
  /**
   * What rewinding the files to the moment `message_id` (on the
   * branch in use) was sent would write, file by file with its
   * diff; files the user changed since are flagged. Changes nothing.
   */
  previewRewind(contextId: ContextId, messageId: MessageId): Promise<RewindPreview>;
  /**
   * Puts the files back as they were when `message_id` was sent
   * (journaled; undone with `undo_rewind`). Files the user changed
   * since are kept unless named in `overwrite`. Only at rest.
   */
  rewindFiles(contextId: ContextId, messageId: MessageId, overwrite: Array<string>): Promise<RewindOutcome>;
  /**
   * Takes back the restore whose note is `note`: the files it
   * wrote go back to what they held before it.
   */
  undoRewind(contextId: ContextId, note: MessageId): Promise<RewindOutcome>;
  /**
   * What the turn holding `message_id` (on the branch in use)
   * changed in the files, as it stands: each file with its hunks.
   * Changes nothing on disk.
   */
  turnChanges(contextId: ContextId, messageId: MessageId): Promise<TurnChanges>;
  /**
   * Takes back the chosen hunks or files of that turn's changes,
   * merged with what each file holds now, as one restore (undone
   * with `undo_rewind`). Refused with why, writing nothing, when a
   * file cannot be undone cleanly. Only at rest.
   */
  undoChanges(contextId: ContextId, messageId: MessageId, files: Array<UndoSelection>): Promise<RewindOutcome>;
  /**
   * Every turn on the branch in use whose tools changed files.
   */
  changedTurns(contextId: ContextId): Promise<Array<TurnChangeCount>>;
  /**
   * The text the conversation's model wrote: a summary of what
   * `source` found since it parted from the branch in use.
   */
  draftMergeSummary(contextId: ContextId, source: BranchId): Promise<string>;
  /**
   * The whole conversation as a graph of branches.
   */
  branchGraph(contextId: ContextId): Promise<GraphView>;
  /**
   * Answered with the new title.
   */
  renameContext(contextId: ContextId, title: string): Promise<ContextSummary>;
  /**
   * The conversation as Braid's JSON (every branch, merge record
   * and image) or as Markdown. Secrets go as their placeholders
   * unless `with_secrets` asks for them.
   */
  exportContext(contextId: ContextId, format: ExportFormat, withSecrets: boolean): Promise<ExportedFile>;
  /**
   * New conversations from a Braid JSON export, a Claude Code
   * session (`.jsonl`) or ChatGPT's `conversations.json` (one
   * conversation each, all read before any is stored); it never
   * changes an existing conversation.
   */
  importContext(text: string): Promise<Array<ContextSummary>>;
  /**
   * A file reference, image or resource is kept in what is sent,
   * ahead of older messages, while it fits (or no longer).
   */
  keepInContext(contextId: ContextId, messageId: MessageId, keep: boolean): Promise<void>;
  /**
   * A tool result's withheld output (the call used a secret) goes
   * to the model from the next request on, as the tool printed it.
   */
  releaseOutput(contextId: ContextId, messageId: MessageId): Promise<void>;
  /**
   * The conversation is kept at the top of the list (or no
   * longer); when it last changed stays as it was.
   */
  pinContext(contextId: ContextId, pinned: boolean): Promise<void>;
  /**
   * Titles containing the words, then messages holding all of them
   * (the last may be the start of a word), best first; at most
   * `limit` (50 by default, 200 at most).
   */
  searchConversations(query: string, limit?: number | null): Promise<Array<SearchHit>>;
  /**
   * None follows the default model again. Takes effect from the
   * next request.
   */
  setContextModel(contextId: ContextId, model?: ModelChoice | null): Promise<ContextSummary>;
  getSettings(): Promise<SettingsView>;
  /**
   * How long checkpoints are kept, their space budget, and the
   * space they take now.
   */
  getCheckpointStorage(): Promise<CheckpointStorage>;
  /**
   * Keeps checkpoints this many days within this budget (both at
   * least 1), dropping what falls outside now; answers the space
   * they take afterwards.
   */
  setCheckpointStorage(keepDays: number, budgetMb: number): Promise<CheckpointStorage>;
  /**
   * Adds or replaces a provider.
   */
  saveProvider(provider: ProviderInput): Promise<SettingsView>;
  /**
   * Removes a provider and its stored key.
   */
  removeProvider(providerId: string): Promise<SettingsView>;
  setDefaultProvider(providerId: string): Promise<SettingsView>;
  /**
   * What new conversations start with (fitting, summaries, cut
   * answers); conversations already there keep their own.
   */
  setConversationDefaults(defaults: ConversationDefaults): Promise<SettingsView>;
  /**
   * What the user tells every conversation (about them, how to
   * answer), from the next request on; each at most 3,000
   * characters.
   */
  setStandingInstructions(instructions: StandingInstructions): Promise<SettingsView>;
  /**
   * The settings as a JSON file to keep or take to another
   * machine: providers (never their keys), defaults, standing
   * instructions.
   */
  exportSettings(): Promise<string>;
  /**
   * Settings from an exported file, checked whole first: a file
   * that cannot be used changes nothing. Providers' keys stay
   * where they are (a provider new here needs its key).
   */
  importSettings(text: string): Promise<SettingsView>;
  /**
   * Connects with the form's values (the stored key when the key
   * is unchanged) without saving; answered by the models it
   * offers, or an error saying what failed.
   */
  testProvider(provider: ProviderInput): Promise<Array<ModelSummary>>;
  /**
   * The models a saved provider offers.
   */
  listModels(providerId: string): Promise<Array<ModelSummary>>;
  /**
   * OpenAI-compatible servers on 127.0.0.1 (llama.cpp, Ollama,
   * LM Studio ports).
   */
  detectLocalServers(): Promise<Array<LocalServer>>;
  /**
   * The built-in model's shelf: its GGUF files, the default, the
   * settings (an error where this build runs no built-in model).
   */
  listLocalModels(): Promise<LocalModelsView>;
  /**
   * Copies a GGUF file from this machine onto the shelf (the first
   * one there becomes the default).
   */
  importLocalModel(path: string): Promise<LocalModelsView>;
  /**
   * Runs another app's GGUF file in place: a link on the shelf,
   * named as that app names the model; the file is not copied.
   */
  linkLocalModel(path: string): Promise<LocalModelsView>;
  /**
   * Deletes an imported model's file (a linked one: the link).
   */
  removeLocalModel(name: string): Promise<LocalModelsView>;
  /**
   * The model that answers from the next request on.
   */
  setDefaultLocalModel(name: string): Promise<LocalModelsView>;
  /**
   * The window and threads, from the next request on.
   */
  setLocalModelSettings(settings: LocalModelSettings): Promise<LocalModelsView>;
  /**
   * GGUF repositories on the hub whose name holds `query`, most
   * downloaded first.
   */
  searchHub(query: string): Promise<Array<HubModel>>;
  /**
   * A hub repository's GGUF files, each with its size, checksum
   * and what it would take in memory here (from its header,
   * read with a range request).
   */
  hubRepo(repo: string): Promise<HubRepo>;
  /**
   * Models chosen for this machine's memory, cores and GPU.
   */
  recommendedModels(): Promise<Recommendations>;
  /**
   * Downloads running, queued, paused, failed and just done.
   */
  listDownloads(): Promise<DownloadsView>;
  /**
   * Queues a hub file for the shelf; `use_when_done` makes it
   * the model that answers once it is there.
   */
  downloadModel(repo: string, file: string, useWhenDone: boolean): Promise<DownloadsView>;
  /**
   * Stops a download, keeping what came for Resume.
   */
  pauseDownload(id: string): Promise<DownloadsView>;
  /**
   * Goes on from where a paused or failed download stopped.
   */
  resumeDownload(id: string): Promise<DownloadsView>;
  /**
   * Stops a download and deletes what came (a finished one is
   * only taken off the list).
   */
  cancelDownload(id: string): Promise<DownloadsView>;
  /**
   * The hub to search and download from (a mirror, or an
   * offline registry); empty: Hugging Face.
   */
  setHubEndpoint(endpoint: string): Promise<DownloadsView>;
  /**
   * The tools Braid has (built-in and from MCP servers), as the
   * model sees them.
   */
  listTools(): Promise<Array<ToolSpec>>;
  /**
   * Takes effect for the next call decided.
   */
  setToolPolicy(contextId: ContextId, policy: ToolApprovalPolicy, alwaysAsk?: Array<string> | null): Promise<ToolSettings>;
  /**
   * Where `run_command` may write and whether it may use the
   * network, from the next command.
   */
  setSandbox(contextId: ContextId, sandbox: Sandbox): Promise<ToolSettings>;
  /**
   * Answered by the settings as stored. Takes effect from the next
   * request; a temperature outside 0 to 2 or a zero token limit
   * is refused.
   */
  setGeneration(contextId: ContextId, settings: GenerationSettings): Promise<GenerationSettings>;
  /**
   * Records a ModeChange message. Only while idle.
   */
  setMode(contextId: ContextId, mode: AgentMode): Promise<void>;
  /**
   * Assistant, or Planner (plans with read tools only and changes
   * nothing); told to the model from the next request.
   */
  setRole(contextId: ContextId, role: AgentRole): Promise<ToolSettings>;
  /**
   * The conversation's last request exactly as it went to the
   * model (none since the app started).
   */
  getSentRequest(contextId: ContextId): Promise<SentRequest | null>;
  /**
   * Makes the conversation a team conversation with these members
   * (or an ordinary one again with none), while idle. Refused,
   * with what to do, when a CLI member's program is not installed
   * or not signed in.
   */
  setTeam(contextId: ContextId, team?: Team | null): Promise<TeamView>;
  /**
   * The team, its members' readiness and the route of turns.
   */
  getTeam(contextId: ContextId): Promise<TeamView>;
  /**
   * Skip a queued member, stop the answering one, stop the chain,
   * or go on after a pause.
   */
  steerTeam(contextId: ContextId, action: TeamAction): Promise<void>;
  /**
   * The conversation's sub-agents, oldest first (the conversation
   * list leaves them out; they open from their parent's card).
   */
  listChildren(contextId: ContextId): Promise<Array<ChildSummary>>;
  /**
   * The codebase index of the conversation's workspace (building,
   * with progress, or ready); none for a folder too broad to index
   * (`/`, the home folder).
   */
  getCodebaseIndex(contextId: ContextId): Promise<CodebaseIndex | null>;
  /**
   * Stops the index's build under way.
   */
  cancelCodebaseIndex(contextId: ContextId): Promise<CodebaseIndex | null>;
  /**
   * Builds the index again (only files changed since the last
   * build are read).
   */
  rebuildCodebaseIndex(contextId: ContextId): Promise<CodebaseIndex | null>;
  /**
   * Lines of a workspace file around `line` (a codebase tool's
   * result opened at the line).
   */
  readWorkspaceFile(contextId: ContextId, path: string, line: number): Promise<FileExcerpt>;
  /**
   * Files of the conversation's workspace (relative paths,
   * `.gitignore` respected) that match `query` as a fuzzy
   * subsequence, best first, at most `limit` (default 50): the
   * `@` picker.
   */
  listWorkspaceFiles(contextId: ContextId, query: string, limit?: number | null): Promise<Array<string>>;
  /**
   * How the conversation is fitted into the model's window from
   * the next request on (storage is never trimmed).
   */
  setContextStrategy(contextId: ContextId, strategy: ContextStrategy, summarizeAtPercent?: number | null): Promise<void>;
  /**
   * The user started writing here: what answering needs gets
   * ready now, not at the send (the built-in model, when it is
   * what answers here, loaded with its prompt read; the token
   * tables of this conversation's model).
   */
  warmUp(contextId: ContextId): Promise<void>;
  /**
   * What the next request would hold, part by part, with `draft`
   * as its newest message (the `/context` view).
   */
  contextBreakdown(contextId: ContextId, draft: string): Promise<ContextBreakdown>;
  /**
   * Summarises now (`/compact`): everything but the last exchange,
   * or up to / from a message, keeping what `instructions` say.
   * With `preview` the summary waits for `apply_summary`.
   */
  compactContext(contextId: ContextId, instructions: string | null, scope: CompactScope, preview: boolean): Promise<void>;
  /**
   * The summary waiting for approval replaces its messages (with
   * `text` when the user edited it).
   */
  applySummary(contextId: ContextId, text?: string | null): Promise<void>;
  /**
   * The summary waiting for approval is thrown away.
   */
  discardSummary(contextId: ContextId): Promise<void>;
  /**
   * A summary's text is changed; what it replaces stays.
   */
  editSummary(contextId: ContextId, messageId: MessageId, text: string): Promise<void>;
  /**
   * A summary is taken back: its messages are sent again.
   */
  undoSummary(contextId: ContextId, messageId: MessageId): Promise<void>;
  /**
   * A tool group (`files`, `commands`, `codebase`, `agents`,
   * `mcp:NAME`) is offered in this conversation or no longer.
   */
  setToolGroup(contextId: ContextId, group: string, offered: boolean): Promise<void>;
  /**
   * A message is left out of what is sent (or sent again); it
   * stays in the history.
   */
  leaveOutOfContext(contextId: ContextId, messageId: MessageId, out: boolean): Promise<void>;
  /**
   * Checks an image (PNG, JPEG, WebP, GIF; `data` is Base64) and
   * keeps it once in the image store; messages then refer to it.
   * Corrupt or unsupported data is refused with the reason.
   */
  storeImage(data: string, name?: string | null): Promise<StoredImage>;
  /**
   * A stored image's bytes, Base64, for thumbnails and the viewer.
   */
  readImage(id: string): Promise<ImageData>;
  /**
   * Reads an image message again (vision or OCR, as its mode — or
   * `mode`, which then becomes its mode — and the current model
   * say), while idle.
   */
  retryImage(contextId: ContextId, messageId: MessageId, mode?: ImageMode | null): Promise<void>;
}

/** The commands over a transport's `execute` (HTTP, or the desktop window's IPC). */
export abstract class CommandClient implements Commands {
  protected abstract execute<C extends Command>(command: C): Promise<ResponseTo<C>>;

  createContext(title?: string | null, workingDir?: string | null): Promise<ContextSummary> {
    return this.execute({ type: "create_context", title: title ?? null, working_dir: workingDir ?? null });
  }
  setWorkingDir(contextId: ContextId, workingDir: string): Promise<ContextSummary> {
    return this.execute({ type: "set_working_dir", context_id: contextId, working_dir: workingDir });
  }
  defaultWorkingDir(): Promise<string> {
    return this.execute({ type: "default_working_dir" });
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
  listMcpResources(): Promise<Array<McpResourceInfo>> {
    return this.execute({ type: "list_mcp_resources" });
  }
  listMcpPrompts(): Promise<Array<McpPromptInfo>> {
    return this.execute({ type: "list_mcp_prompts" });
  }
  listMcpTemplates(): Promise<Array<McpResourceTemplate>> {
    return this.execute({ type: "list_mcp_templates" });
  }
  trustWorkspaceMcp(trusted: boolean): Promise<McpSettings> {
    return this.execute({ type: "trust_workspace_mcp", trusted });
  }
  setMcpSecret(name: string, value?: string | null): Promise<McpSettings> {
    return this.execute({ type: "set_mcp_secret", name, value: value ?? null });
  }
  getMcpPrompt(server: string, name: string, args: { [key in string]: string }): Promise<string> {
    return this.execute({ type: "get_mcp_prompt", server, name, arguments: args });
  }
  listContexts(): Promise<Array<ContextSummary>> {
    return this.execute({ type: "list_contexts" });
  }
  loadContext(contextId: ContextId): Promise<ContextSnapshot> {
    return this.execute({ type: "load_context", context_id: contextId });
  }
  deleteContext(contextId: ContextId): Promise<void> {
    return this.execute({ type: "delete_context", context_id: contextId });
  }
  sendMessage(contextId: ContextId, message: NewMessage, queueIfBusy: boolean): Promise<SendReceipt> {
    return this.execute({ type: "send_message", context_id: contextId, message, queue_if_busy: queueIfBusy });
  }
  sendPayload(request: SendMessageRequest): Promise<PayloadReceipt> {
    return this.execute({ type: "send_payload", request });
  }
  listWorkflows(contextId: ContextId): Promise<WorkflowList> {
    return this.execute({ type: "list_workflows", context_id: contextId });
  }
  unqueue(contextId: ContextId, messageId: MessageId): Promise<void> {
    return this.execute({ type: "unqueue", context_id: contextId, message_id: messageId });
  }
  editQueued(contextId: ContextId, messageId: MessageId, change: QueueChange): Promise<void> {
    return this.execute({ type: "edit_queued", context_id: contextId, message_id: messageId, change });
  }
  cancel(contextId: ContextId): Promise<void> {
    return this.execute({ type: "cancel", context_id: contextId });
  }
  interrupt(contextId: ContextId): Promise<void> {
    return this.execute({ type: "interrupt", context_id: contextId });
  }
  retry(contextId: ContextId): Promise<void> {
    return this.execute({ type: "retry", context_id: contextId });
  }
  continueLoop(contextId: ContextId): Promise<void> {
    return this.execute({ type: "continue", context_id: contextId });
  }
  decideToolCall(contextId: ContextId, callId: CallId, decision: ApprovalDecision, reason?: string | null): Promise<void> {
    return this.execute({ type: "decide_tool_call", context_id: contextId, call_id: callId, decision, reason: reason ?? null });
  }
  createBranch(contextId: ContextId, fromMessage: MessageId, name: string, systemPrompt?: string | null): Promise<BranchId> {
    return this.execute({ type: "create_branch", context_id: contextId, from_message: fromMessage, name, system_prompt: systemPrompt ?? null });
  }
  forkBefore(contextId: ContextId, message: MessageId, name: string): Promise<BranchId> {
    return this.execute({ type: "fork_before", context_id: contextId, message, name });
  }
  switchBranch(contextId: ContextId, branchId: BranchId): Promise<void> {
    return this.execute({ type: "switch_branch", context_id: contextId, branch_id: branchId });
  }
  previewSwitchFiles(contextId: ContextId, branchId: BranchId): Promise<RewindPreview> {
    return this.execute({ type: "preview_switch_files", context_id: contextId, branch_id: branchId });
  }
  switchBranchWithFiles(contextId: ContextId, branchId: BranchId, overwrite: Array<string>): Promise<RewindOutcome> {
    return this.execute({ type: "switch_branch_with_files", context_id: contextId, branch_id: branchId, overwrite });
  }
  renameBranch(contextId: ContextId, branchId: BranchId, name: string): Promise<void> {
    return this.execute({ type: "rename_branch", context_id: contextId, branch_id: branchId, name });
  }
  setBranchPrompt(contextId: ContextId, branchId: BranchId, systemPrompt?: string | null): Promise<void> {
    return this.execute({ type: "set_branch_prompt", context_id: contextId, branch_id: branchId, system_prompt: systemPrompt ?? null });
  }
  setBranchModel(contextId: ContextId, branchId: BranchId, model?: ModelChoice | null): Promise<void> {
    return this.execute({ type: "set_branch_model", context_id: contextId, branch_id: branchId, model: model ?? null });
  }
  deleteBranch(contextId: ContextId, branchId: BranchId): Promise<void> {
    return this.execute({ type: "delete_branch", context_id: contextId, branch_id: branchId });
  }
  isolateBranch(contextId: ContextId, branchId: BranchId): Promise<string> {
    return this.execute({ type: "isolate_branch", context_id: contextId, branch_id: branchId });
  }
  removeBranchCopy(contextId: ContextId, branchId: BranchId, discard: boolean): Promise<void> {
    return this.execute({ type: "remove_branch_copy", context_id: contextId, branch_id: branchId, discard });
  }
  previewMerge(contextId: ContextId, options: MergeOptions): Promise<MergePreview> {
    return this.execute({ type: "preview_merge", context_id: contextId, options });
  }
  merge(contextId: ContextId, options: MergeOptions): Promise<MessageId> {
    return this.execute({ type: "merge", context_id: contextId, options });
  }
  undoMerge(contextId: ContextId, merge: MessageId): Promise<void> {
    return this.execute({ type: "undo_merge", context_id: contextId, merge });
  }
  previewRewind(contextId: ContextId, messageId: MessageId): Promise<RewindPreview> {
    return this.execute({ type: "preview_rewind", context_id: contextId, message_id: messageId });
  }
  rewindFiles(contextId: ContextId, messageId: MessageId, overwrite: Array<string>): Promise<RewindOutcome> {
    return this.execute({ type: "rewind_files", context_id: contextId, message_id: messageId, overwrite });
  }
  undoRewind(contextId: ContextId, note: MessageId): Promise<RewindOutcome> {
    return this.execute({ type: "undo_rewind", context_id: contextId, note });
  }
  turnChanges(contextId: ContextId, messageId: MessageId): Promise<TurnChanges> {
    return this.execute({ type: "turn_changes", context_id: contextId, message_id: messageId });
  }
  undoChanges(contextId: ContextId, messageId: MessageId, files: Array<UndoSelection>): Promise<RewindOutcome> {
    return this.execute({ type: "undo_changes", context_id: contextId, message_id: messageId, files });
  }
  changedTurns(contextId: ContextId): Promise<Array<TurnChangeCount>> {
    return this.execute({ type: "changed_turns", context_id: contextId });
  }
  draftMergeSummary(contextId: ContextId, source: BranchId): Promise<string> {
    return this.execute({ type: "draft_merge_summary", context_id: contextId, source });
  }
  branchGraph(contextId: ContextId): Promise<GraphView> {
    return this.execute({ type: "branch_graph", context_id: contextId });
  }
  renameContext(contextId: ContextId, title: string): Promise<ContextSummary> {
    return this.execute({ type: "rename_context", context_id: contextId, title });
  }
  exportContext(contextId: ContextId, format: ExportFormat, withSecrets: boolean): Promise<ExportedFile> {
    return this.execute({ type: "export_context", context_id: contextId, format, with_secrets: withSecrets });
  }
  importContext(text: string): Promise<Array<ContextSummary>> {
    return this.execute({ type: "import_context", text });
  }
  keepInContext(contextId: ContextId, messageId: MessageId, keep: boolean): Promise<void> {
    return this.execute({ type: "keep_in_context", context_id: contextId, message_id: messageId, keep });
  }
  releaseOutput(contextId: ContextId, messageId: MessageId): Promise<void> {
    return this.execute({ type: "release_output", context_id: contextId, message_id: messageId });
  }
  pinContext(contextId: ContextId, pinned: boolean): Promise<void> {
    return this.execute({ type: "pin_context", context_id: contextId, pinned });
  }
  searchConversations(query: string, limit?: number | null): Promise<Array<SearchHit>> {
    return this.execute({ type: "search_conversations", query, limit: limit ?? null });
  }
  setContextModel(contextId: ContextId, model?: ModelChoice | null): Promise<ContextSummary> {
    return this.execute({ type: "set_context_model", context_id: contextId, model: model ?? null });
  }
  getSettings(): Promise<SettingsView> {
    return this.execute({ type: "get_settings" });
  }
  getCheckpointStorage(): Promise<CheckpointStorage> {
    return this.execute({ type: "get_checkpoint_storage" });
  }
  setCheckpointStorage(keepDays: number, budgetMb: number): Promise<CheckpointStorage> {
    return this.execute({ type: "set_checkpoint_storage", keep_days: keepDays, budget_mb: budgetMb });
  }
  saveProvider(provider: ProviderInput): Promise<SettingsView> {
    return this.execute({ type: "save_provider", provider });
  }
  removeProvider(providerId: string): Promise<SettingsView> {
    return this.execute({ type: "remove_provider", provider_id: providerId });
  }
  setDefaultProvider(providerId: string): Promise<SettingsView> {
    return this.execute({ type: "set_default_provider", provider_id: providerId });
  }
  setConversationDefaults(defaults: ConversationDefaults): Promise<SettingsView> {
    return this.execute({ type: "set_conversation_defaults", defaults });
  }
  setStandingInstructions(instructions: StandingInstructions): Promise<SettingsView> {
    return this.execute({ type: "set_standing_instructions", instructions });
  }
  exportSettings(): Promise<string> {
    return this.execute({ type: "export_settings" });
  }
  importSettings(text: string): Promise<SettingsView> {
    return this.execute({ type: "import_settings", text });
  }
  testProvider(provider: ProviderInput): Promise<Array<ModelSummary>> {
    return this.execute({ type: "test_provider", provider });
  }
  listModels(providerId: string): Promise<Array<ModelSummary>> {
    return this.execute({ type: "list_models", provider_id: providerId });
  }
  detectLocalServers(): Promise<Array<LocalServer>> {
    return this.execute({ type: "detect_local_servers" });
  }
  listLocalModels(): Promise<LocalModelsView> {
    return this.execute({ type: "list_local_models" });
  }
  importLocalModel(path: string): Promise<LocalModelsView> {
    return this.execute({ type: "import_local_model", path });
  }
  linkLocalModel(path: string): Promise<LocalModelsView> {
    return this.execute({ type: "link_local_model", path });
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
  searchHub(query: string): Promise<Array<HubModel>> {
    return this.execute({ type: "search_hub", query });
  }
  hubRepo(repo: string): Promise<HubRepo> {
    return this.execute({ type: "hub_repo", repo });
  }
  recommendedModels(): Promise<Recommendations> {
    return this.execute({ type: "recommended_models" });
  }
  listDownloads(): Promise<DownloadsView> {
    return this.execute({ type: "list_downloads" });
  }
  downloadModel(repo: string, file: string, useWhenDone: boolean): Promise<DownloadsView> {
    return this.execute({ type: "download_model", repo, file, use_when_done: useWhenDone });
  }
  pauseDownload(id: string): Promise<DownloadsView> {
    return this.execute({ type: "pause_download", id });
  }
  resumeDownload(id: string): Promise<DownloadsView> {
    return this.execute({ type: "resume_download", id });
  }
  cancelDownload(id: string): Promise<DownloadsView> {
    return this.execute({ type: "cancel_download", id });
  }
  setHubEndpoint(endpoint: string): Promise<DownloadsView> {
    return this.execute({ type: "set_hub_endpoint", endpoint });
  }
  listTools(): Promise<Array<ToolSpec>> {
    return this.execute({ type: "list_tools" });
  }
  setToolPolicy(contextId: ContextId, policy: ToolApprovalPolicy, alwaysAsk?: Array<string> | null): Promise<ToolSettings> {
    return this.execute({ type: "set_tool_policy", context_id: contextId, policy, always_ask: alwaysAsk ?? null });
  }
  setSandbox(contextId: ContextId, sandbox: Sandbox): Promise<ToolSettings> {
    return this.execute({ type: "set_sandbox", context_id: contextId, sandbox });
  }
  setGeneration(contextId: ContextId, settings: GenerationSettings): Promise<GenerationSettings> {
    return this.execute({ type: "set_generation", context_id: contextId, settings });
  }
  setMode(contextId: ContextId, mode: AgentMode): Promise<void> {
    return this.execute({ type: "set_mode", context_id: contextId, mode });
  }
  setRole(contextId: ContextId, role: AgentRole): Promise<ToolSettings> {
    return this.execute({ type: "set_role", context_id: contextId, role });
  }
  getSentRequest(contextId: ContextId): Promise<SentRequest | null> {
    return this.execute({ type: "get_sent_request", context_id: contextId });
  }
  setTeam(contextId: ContextId, team?: Team | null): Promise<TeamView> {
    return this.execute({ type: "set_team", context_id: contextId, team: team ?? null });
  }
  getTeam(contextId: ContextId): Promise<TeamView> {
    return this.execute({ type: "get_team", context_id: contextId });
  }
  steerTeam(contextId: ContextId, action: TeamAction): Promise<void> {
    return this.execute({ type: "steer_team", context_id: contextId, action });
  }
  listChildren(contextId: ContextId): Promise<Array<ChildSummary>> {
    return this.execute({ type: "list_children", context_id: contextId });
  }
  getCodebaseIndex(contextId: ContextId): Promise<CodebaseIndex | null> {
    return this.execute({ type: "get_codebase_index", context_id: contextId });
  }
  cancelCodebaseIndex(contextId: ContextId): Promise<CodebaseIndex | null> {
    return this.execute({ type: "cancel_codebase_index", context_id: contextId });
  }
  rebuildCodebaseIndex(contextId: ContextId): Promise<CodebaseIndex | null> {
    return this.execute({ type: "rebuild_codebase_index", context_id: contextId });
  }
  readWorkspaceFile(contextId: ContextId, path: string, line: number): Promise<FileExcerpt> {
    return this.execute({ type: "read_workspace_file", context_id: contextId, path, line });
  }
  listWorkspaceFiles(contextId: ContextId, query: string, limit?: number | null): Promise<Array<string>> {
    return this.execute({ type: "list_workspace_files", context_id: contextId, query, limit: limit ?? null });
  }
  setContextStrategy(contextId: ContextId, strategy: ContextStrategy, summarizeAtPercent?: number | null): Promise<void> {
    return this.execute({ type: "set_context_strategy", context_id: contextId, strategy, summarize_at_percent: summarizeAtPercent ?? null });
  }
  warmUp(contextId: ContextId): Promise<void> {
    return this.execute({ type: "warm_up", context_id: contextId });
  }
  contextBreakdown(contextId: ContextId, draft: string): Promise<ContextBreakdown> {
    return this.execute({ type: "context_breakdown", context_id: contextId, draft });
  }
  compactContext(contextId: ContextId, instructions: string | null, scope: CompactScope, preview: boolean): Promise<void> {
    return this.execute({ type: "compact_context", context_id: contextId, instructions, scope, preview });
  }
  applySummary(contextId: ContextId, text?: string | null): Promise<void> {
    return this.execute({ type: "apply_summary", context_id: contextId, text: text ?? null });
  }
  discardSummary(contextId: ContextId): Promise<void> {
    return this.execute({ type: "discard_summary", context_id: contextId });
  }
  editSummary(contextId: ContextId, messageId: MessageId, text: string): Promise<void> {
    return this.execute({ type: "edit_summary", context_id: contextId, message_id: messageId, text });
  }
  undoSummary(contextId: ContextId, messageId: MessageId): Promise<void> {
    return this.execute({ type: "undo_summary", context_id: contextId, message_id: messageId });
  }
  setToolGroup(contextId: ContextId, group: string, offered: boolean): Promise<void> {
    return this.execute({ type: "set_tool_group", context_id: contextId, group, offered });
  }
  leaveOutOfContext(contextId: ContextId, messageId: MessageId, out: boolean): Promise<void> {
    return this.execute({ type: "leave_out_of_context", context_id: contextId, message_id: messageId, out });
  }
  storeImage(data: string, name?: string | null): Promise<StoredImage> {
    return this.execute({ type: "store_image", data, name: name ?? null });
  }
  readImage(id: string): Promise<ImageData> {
    return this.execute({ type: "read_image", id });
  }
  retryImage(contextId: ContextId, messageId: MessageId, mode?: ImageMode | null): Promise<void> {
    return this.execute({ type: "retry_image", context_id: contextId, message_id: messageId, mode: mode ?? null });
  }
}
