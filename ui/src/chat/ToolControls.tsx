import type { AgentMode, ToolApprovalPolicy, ToolSettings } from "../generated/protocol";

const POLICIES: { id: string; label: string; policy: ToolApprovalPolicy }[] = [
  { id: "white_list", label: "Ask before writing or running", policy: { kind: "white_list", tools: ["read_file", "list_directory", "glob_files"] } },
  { id: "manual", label: "Ask for every tool", policy: { kind: "manual" } },
  { id: "limited_auto", label: "Run up to 10 rounds / 25 tools, then ask", policy: { kind: "limited_auto", max_depth: 10, max_tools: 25 } },
  { id: "auto_all", label: "Run every tool without asking", policy: { kind: "auto_all" } },
];

interface Props {
  tools: ToolSettings;
  busy: boolean;
  onMode: (mode: AgentMode) => void;
  onPolicy: (policy: ToolApprovalPolicy) => void;
}

/** Plan/Act and the approval policy of this conversation. */
export function ToolControls({ tools, busy, onMode, onPolicy }: Props) {
  const current = tools.policy.kind;
  return (
    <div className="tool-controls">
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
      <select aria-label="Tool approval" value={current} onChange={(e) => onPolicy(POLICIES.find((p) => p.id === e.target.value)!.policy)}>
        {POLICIES.map((p) => <option key={p.id} value={p.id}>{p.label}</option>)}
      </select>
    </div>
  );
}
