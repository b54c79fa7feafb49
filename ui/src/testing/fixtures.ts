// Protocol values for tests, complete and valid, so a test spells out only
// what it is about.
import type { ContextSnapshot, ContextSummary, Message, ToolSettings } from "../generated/protocol";

export const defaultTools: ToolSettings = {
  policy: { kind: "white_list", tools: ["read_file", "list_directory", "glob_files"] },
  always_ask: [],
  always_allowed: [],
  allowed_pins: {},
  mode: "act",
  role: "assistant",
  timeout_ms: 30000,
  confirm_reads: false,
  sandbox: { level: "workspace_write", network: false, git_writable: false },
};

/** A conversation as the list shows it: idle, on main, nothing pinned. */
export function summaryOf(extra: Partial<ContextSummary> = {}): ContextSummary {
  return {
    id: "c", title: "t", working_dir: "/", created_at: 0, updated_at: 0, status: { state: "idle" }, message_count: 0, model: null, pinned: false,
    branches: [{ id: "main", name: "main" }], active_branch: "main", ...extra,
  };
}

export function snapshotOf(messages: Message[], extra: Partial<ContextSnapshot> = {}): ContextSnapshot {
  return {
    summary: summaryOf({ message_count: messages.length }),
    active_branch: "main",
    branches: [],
    queued: [],
    messages,
    truncated: false,
    effective_model: null,
    tools: defaultTools,
    strategy: { kind: "intelligent", keep_last: 10 },
    summarize_at_percent: 92,
    generation: { tool_use: null, temperature: null, max_output_tokens: null, continue_cut: null },
    tool_use: "auto",
    context: null,
    kept: [],
    dropped_tools: [],
    versions: [],
    left_out: [],
    files: [],
    overwrites: [],
    previews: [],
    prompted: [],
    secret_uses: [],
    tool_changes: [],
    blocked: null,
    ...extra,
  };
}

export function textMessage(id: number, role: "user" | "assistant", text: string): Message {
  return { id, created_at: 0, schema_version: 1, body: { type: "text", role, parts: [{ kind: "text", text }] } };
}
