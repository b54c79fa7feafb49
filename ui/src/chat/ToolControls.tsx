import type { AgentMode, Sandbox, SandboxLevel, ToolApprovalPolicy, ToolSettings } from "../generated/protocol";

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

const LEVELS: { id: SandboxLevel; label: string; title: string }[] = [
  { id: "workspace_write", label: "Sandbox: workspace", title: "Commands write only inside the workspace (not its .git) and a private /tmp" },
  { id: "read_only", label: "Sandbox: read-only", title: "Commands read anything you can, and write only a private /tmp" },
  { id: "full_access", label: "Full access", title: "No sandbox: commands run with your full rights" },
];

/** Where this conversation's commands may write and whether they may use
 *  the network; leaving the sandbox is asked for plainly and shown red. */
export function SandboxControls({ tools, onSandbox }: { tools: ToolSettings; onSandbox: (sandbox: Sandbox) => void }) {
  const s = tools.sandbox;
  const level = LEVELS.find((l) => l.id === s.level)!;
  const choose = (id: SandboxLevel) => {
    if (id === "full_access" && !window.confirm("Run this conversation's commands with your full rights? They could change or delete any of your files and use the network.")) return;
    onSandbox({ ...s, level: id });
  };
  return (
    <fieldset className={`sandbox${s.level === "full_access" ? " full-access" : ""}`} aria-label="Commands">
      <label title={level.title}>
        <span>Commands</span>
        <select aria-label="Command sandbox" value={s.level} onChange={(e) => choose(e.target.value as SandboxLevel)}>
          {LEVELS.map((l) => <option key={l.id} value={l.id} title={l.title}>{l.label}</option>)}
        </select>
      </label>
      {s.level !== "full_access" ? (
        <>
          <label title="Off: commands reach no network at all, not even 127.0.0.1">
            <span>Network</span>
            <input type="checkbox" checked={s.network} onChange={(e) => onSandbox({ ...s, network: e.target.checked })} />
          </label>
          {s.level === "workspace_write" ? (
            <label title="Let commands change the workspace's .git (commit, branch)">
              <span>.git writable</span>
              <input type="checkbox" checked={s.git_writable} onChange={(e) => onSandbox({ ...s, git_writable: e.target.checked })} />
            </label>
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}
