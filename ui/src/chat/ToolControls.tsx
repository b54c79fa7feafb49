import type { AgentMode, ToolApprovalPolicy, ToolSettings } from "../generated/protocol";

const POLICIES: { id: string; label: string; policy: ToolApprovalPolicy }[] = [
  { id: "white_list", label: "Ask before writing or running", policy: { kind: "white_list", tools: ["read_file", "list_directory", "glob_files"] } },
  { id: "manual", label: "Ask for every tool", policy: { kind: "manual" } },
  { id: "limited_auto", label: "Run up to 10 rounds / 25 tools, then ask", policy: { kind: "limited_auto", max_depth: 10, max_tools: 25 } },
  { id: "auto_all", label: "Run every tool without asking", policy: { kind: "auto_all" } },
];

/** Plan/Act of this conversation. */
export function ModeControls({ tools, busy, onMode }: { tools: ToolSettings; busy: boolean; onMode: (mode: AgentMode) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Mode">
      {(["plan", "act"] as const).map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={tools.mode === m}
          disabled={busy}
          title={m === "plan" ? "Plan: read-only tools, the model proposes a plan" : "Act: every tool"}
          onClick={() => tools.mode !== m && onMode(m)}
        >
          {m === "plan" ? "Plan" : "Act"}
        </button>
      ))}
    </div>
  );
}

/** When the model's tool calls need the user's yes. */
export function PolicySelect({ tools, onPolicy }: { tools: ToolSettings; onPolicy: (policy: ToolApprovalPolicy) => void }) {
  return (
    <label>
      <span>Tool approval</span>
      <select aria-label="Tool approval" value={tools.policy.kind} onChange={(e) => onPolicy(POLICIES.find((p) => p.id === e.target.value)!.policy)}>
        {POLICIES.map((p) => <option key={p.id} value={p.id}>{p.label}</option>)}
      </select>
    </label>
  );
}
