import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { AgentMode, AgentRole, Sandbox, SandboxLevel, ToolApprovalPolicy, ToolSettings } from "../generated/protocol";
import { useConfirm } from "../confirm";

const POLICIES: { id: string; label: string; policy: ToolApprovalPolicy }[] = [
  { id: "white_list", label: "Ask before writing or running", policy: { kind: "white_list", tools: ["read_file", "list_directory", "glob_files"] } },
  { id: "manual", label: "Ask for every tool", policy: { kind: "manual" } },
  { id: "limited_auto", label: "Run up to 10 rounds / 25 tools, then ask", policy: { kind: "limited_auto", max_depth: 10, max_tools: 25 } },
  { id: "sandboxed", label: "Run sandboxed commands and edits; ask to leave the sandbox", policy: { kind: "sandboxed" } },
  { id: "auto_all", label: "Full auto: run every tool without asking", policy: { kind: "auto_all" } },
];

/** Why this machine has no sandbox for commands (from the tool
 *  catalogue), or null when it has one; asked once per backend. */
export function useNoSandbox(backend: Backend): string | null {
  const [why, setWhy] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    backend.listTools().then(
      (tools) => {
        const run = tools.find((t) => t.name === "run_command")?.sandbox;
        if (live) setWhy(run?.kind === "missing" ? run.why : null);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [backend]);
  return why;
}

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

/** The agent's role: a Planner plans with read tools and changes nothing. */
export function RoleSelect({ tools, onRole }: { tools: ToolSettings; onRole: (role: AgentRole) => void }) {
  return (
    <label title="A Planner studies the code with read tools and writes a plan; it changes nothing">
      <span>Role</span>
      <select aria-label="Role" value={tools.role} onChange={(e) => onRole(e.target.value as AgentRole)}>
        <option value="assistant">Assistant</option>
        <option value="planner">Planner (read-only, writes a plan)</option>
      </select>
    </label>
  );
}

/** When the model's tool calls need the user's yes. */
export function PolicySelect({ policy, onPolicy, label = "Tool approval" }: { policy: ToolApprovalPolicy; onPolicy: (policy: ToolApprovalPolicy) => void; label?: string }) {
  return (
    <label>
      <span>Tool approval</span>
      <select aria-label={label} value={policy.kind} onChange={(e) => onPolicy(POLICIES.find((p) => p.id === e.target.value)!.policy)}>
        {POLICIES.map((p) => <option key={p.id} value={p.id}>{p.label}</option>)}
      </select>
    </label>
  );
}

const LEVELS: { id: SandboxLevel; label: string; title: string }[] = [
  { id: "workspace_write", label: "Sandbox: workspace", title: "Commands see the system, your tools and this conversation's folder, never your home's other files, keys or Braid's data; they change only this folder (not its .git, .mcp.json or .env) and a private /tmp that is thrown away after each command." },
  { id: "read_only", label: "Sandbox: read-only", title: "Commands see the system, your tools and this conversation's folder (never your home's other files, keys or Braid's data) but change nothing: they may write only a private /tmp that is thrown away after each command." },
  { id: "full_access", label: "Full access", title: "No sandbox: commands run with your full rights, as if you typed them in a terminal. They can change or delete any of your files." },
];

/** Where this conversation's commands may write and whether they may use
 *  the network; leaving the sandbox is asked for plainly and shown red. */
export function SandboxControls({ sandbox: s, noSandbox = null, onSandbox, label = "Command sandbox" }: { sandbox: Sandbox; noSandbox?: string | null; onSandbox: (sandbox: Sandbox) => void; label?: string }) {
  const level = LEVELS.find((l) => l.id === s.level)!;
  const confirm = useConfirm();
  const choose = async (id: SandboxLevel) => {
    const full = "Run this conversation's commands with your full rights? They could change or delete any of your files and use the network.";
    if (id === "full_access" && !(await confirm({ title: "Leave the sandbox?", message: full, confirm: "Give full access", danger: true }))) return;
    onSandbox({ ...s, level: id });
  };
  return (
    <fieldset className={`sandbox${s.level === "full_access" ? " full-access" : ""}`} aria-label="Commands">
      <label title={level.title}>
        <span>Commands</span>
        <select aria-label={label} value={s.level} onChange={(e) => choose(e.target.value as SandboxLevel)}>
          {LEVELS.map((l) => <option key={l.id} value={l.id} title={l.title}>{l.label}</option>)}
        </select>
      </label>
      <small className="sandbox-explain" data-testid="sandbox-explain">
        {noSandbox && s.level !== "full_access"
          ? `This machine has no sandbox (${noSandbox}): Braid asks before every command, and an approved one runs with your full rights.`
          : `${level.title}${s.level === "full_access" ? "" : ` Network: ${s.network ? "allowed" : "off, not even 127.0.0.1"}.`}`}
      </small>
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
