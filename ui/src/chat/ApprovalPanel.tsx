import { useEffect, useRef, useState, type Ref } from "react";
import type { ApprovalDecision, BlockedCommand, HeldTool, OverwriteRisk, PromptedCall, Sandbox, SecretUse, ToolCall, ToolSettings, WritePreview } from "../generated/protocol";
import { CallDetails } from "./CallDetails";
import { ToolChange } from "../settings/HeldTools";

interface Props {
  calls: ToolCall[];
  tools: ToolSettings | null;
  /** Pending writes over a file the model has not seen as it is. */
  overwrites?: OverwriteRisk[];
  /** What each pending write would change. */
  previews?: WritePreview[];
  /** Pending calls that text from a tool, a file or a server asked for. */
  prompted?: PromptedCall[];
  /** The secrets pending calls would run with. */
  secrets?: SecretUse[];
  /** Tools allowed always here whose definition changed since. */
  changes?: HeldTool[];
  /** Where commands run (the conversation's workspace). */
  folder?: string;
  /** The command the sandbox just stopped, if one waits. */
  blocked?: BlockedCommand | null;
  /** Why this machine has no sandbox for commands; null when it has one. */
  noSandbox?: string | null;
  /** `reason` goes with a denial, to the model. */
  onDecide: (call: ToolCall, decision: ApprovalDecision, reason?: string) => void;
  /** The sub-agent asking, when the calls are a child's. */
  from?: string;
}

/** Why approving `call` as is would have the tool refuse it, in words;
 *  null when it would not. */
export function overwriteWarning(call: ToolCall, overwrites: OverwriteRisk[]): string | null {
  const risk = overwrites.find((o) => o.call_id === call.id);
  if (!risk) return null;
  return risk.reason === "not_read"
    ? `${risk.path} exists and the model has not read it in this conversation: approving as is lets the tool refuse; overwriting replaces the file.`
    : `${risk.path} changed outside Braid since the model read it: approving as is lets the tool refuse; overwriting replaces those changes.`;
}

/** Where a command would run: its sandbox level in words, full access red. */
export function SandboxNote({ sandbox, missing }: { sandbox: Sandbox; missing?: string | null }) {
  if (missing && sandbox.level !== "full_access") {
    return <small className="sandbox-note full-access" data-testid="sandbox-note">No sandbox on this machine ({missing}): approved, it runs with your full rights.</small>;
  }
  if (sandbox.level === "full_access") {
    return <small className="sandbox-note full-access" data-testid="sandbox-note">Runs with full access: no sandbox, your full rights.</small>;
  }
  const where = sandbox.level === "read_only" ? "writes only a private /tmp" : `writes only in the workspace${sandbox.git_writable ? "" : " (not .git)"} and a private /tmp`;
  return <small className="sandbox-note" data-testid="sandbox-note">Runs in the sandbox: {where}; network {sandbox.network ? "allowed" : "off"}.</small>;
}

/** Why to read a call twice: the text that asked for it did not come
 *  from the user. */
export function PromptedNote({ prompted }: { prompted: PromptedCall }) {
  return (
    <p className="tool-error prompted-note" data-testid="prompted-warning">
      Proposed right after {prompted.source}, which asked for it: “{prompted.excerpt}”. That text is not yours; approve only
      if you want this.
    </p>
  );
}

/** Why this call is asked whatever the policy: it runs with a secret,
 *  named by its placeholder; one Braid does not know refuses the call. */
export function SecretNote({ uses }: { uses: SecretUse[] }) {
  const known = uses.filter((u) => u.known);
  const unknown = uses.filter((u) => !u.known);
  return (
    <div className="tool-error secret-note" data-testid="secret-use">
      {known.length ? (
        <p>
          Runs with {known.length === 1 ? "a secret" : `${known.length} secrets`}: {known.map((u) => `${u.kind} (${u.placeholder})`).join(", ")}. The
          command gets the real value; its output is kept from the model if it may hold it, and you can release it.
        </p>
      ) : null}
      {unknown.length ? (
        <p>
          {unknown.map((u) => u.placeholder).join(", ")} stands for no secret Braid knows (a placeholder from before the secret
          filter&apos;s key was replaced, or one made up): approved, the call is refused.
        </p>
      ) : null}
    </div>
  );
}

/** The calls waiting for the user. The first call's default action has
 *  the focus — Approve, or Approve and overwrite over a file the model
 *  never read, or Keep it in the sandbox — so Enter does it; Esc denies
 *  (with the reason typed, if any); Tab reaches the other buttons and the
 *  reason box. */
export function ApprovalPanel({ calls, tools, overwrites = [], previews = [], prompted = [], secrets = [], changes = [], folder, blocked, noSandbox, onDecide, from }: Props) {
  const first = useRef<HTMLButtonElement>(null);
  // The default action has the focus whenever the question changes (a
  // call added, or one now asking to leave the sandbox), so Enter does
  // what it says and Esc, heard inside the dialog, denies.
  const asking = calls.map((c) => `${c.id}:${c.approval}`).join(" ");
  useEffect(() => {
    first.current?.focus();
  }, [asking]);
  // Why not, per call: told to the model with the denial.
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const deny = (c: ToolCall) => onDecide(c, "deny", reasons[c.id]?.trim() || undefined);
  if (calls.length === 0) return null;
  return (
    <section
      className="approval"
      role="dialog"
      aria-label={from ? `Approve ${from}'s tool calls` : "Approve tool calls"}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          deny(calls[0]);
        }
      }}
    >
      <header>
        {calls.every((c) => c.approval === "ask_unsandboxed")
          ? "A command asks to leave the sandbox"
          : `${from ? `The sub-agent ${from}` : "The model"} wants to run ${calls.length === 1 ? "a tool" : `${calls.length} tools`}`}
        {calls.length > 1 ? (
          <button type="button" className="approve-all" onClick={() => onDecide(calls[0], "approve_all")}>Approve all {calls.length}</button>
        ) : null}
      </header>
      {tools?.confirm_reads && calls.some((c) => c.approval === "pending") ? (
        <p className="approval-note" data-testid="broad-folder">
          This conversation works in {folder ?? "a broad folder"}, your home folder or one above it: Braid asks before the
          first read, and an approved read lets the later ones run. A project folder (Options, Folder) needs no asking.
        </p>
      ) : null}
      {calls.map((c, i) => {
        if (c.approval === "ask_unsandboxed") {
          return <LeaveSandbox key={c.id} call={c} blocked={blocked?.call_id === c.id ? blocked : null} folder={folder} focus={i === 0 ? first : undefined} reason={reasons[c.id] ?? ""} onReason={(r) => setReasons((x) => ({ ...x, [c.id]: r }))} onDecide={onDecide} />;
        }
        const warning = overwriteWarning(c, overwrites);
        const asked = prompted.find((p) => p.call_id === c.id);
        const uses = secrets.filter((s) => s.call_id === c.id);
        const changed = changes.find((t) => t.name === c.name);
        return (
        <div key={c.id} className="approval-call">
          <div>
            <strong>{c.name}</strong>
            {mcpServerOf(c.name) ? <small className="approval-source"> from the MCP server {mcpServerOf(c.name)}</small> : null}
            <CallDetails call={c} folder={folder} preview={previews.find((p) => p.call_id === c.id)} />
            {warning ? <div className="tool-error" data-testid="overwrite-warning">{warning}</div> : null}
            {asked ? <PromptedNote prompted={asked} /> : null}
            {uses.length ? <SecretNote uses={uses} /> : null}
            {changed ? (
              <div className="tool-changed" data-testid="tool-changed">
                <p className="tool-error">You allowed {c.name} always, then its server changed it and you accepted the new definition: asked again. What changed:</p>
                <ToolChange change={changed} />
              </div>
            ) : null}
            {c.name === "run_command" && tools ? <SandboxNote sandbox={tools.sandbox} missing={noSandbox} /> : null}
          </div>
          <div className="actions">
            {/* Over a file the model never read, only overwriting writes:
                that is the default then, named as what it does. */}
            {warning ? (
              <button type="button" className="primary" ref={i === 0 ? first : undefined} onClick={() => onDecide(c, "approve_overwrite")}>
                Approve and overwrite
              </button>
            ) : (
              <button type="button" className="primary" ref={i === 0 ? first : undefined} onClick={() => onDecide(c, "approve")}>
                Approve
              </button>
            )}
            <button type="button" className="danger" onClick={() => deny(c)}>Deny</button>
            <input
              className="deny-reason"
              aria-label={`Why deny ${c.name}`}
              placeholder="Why not? (optional, told to the model)"
              value={reasons[c.id] ?? ""}
              onChange={(e) => setReasons((r) => ({ ...r, [c.id]: e.target.value }))}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  deny(c);
                }
              }}
            />
            {tools?.always_ask.includes(c.name) ? null : (
              <button type="button" onClick={() => onDecide(c, "always_allow")} title="Run every later call of this tool in this conversation without asking">
                Always allow {c.name}
              </button>
            )}
          </div>
        </div>
        );
      })}
    </section>
  );
}

interface LeaveProps {
  call: ToolCall;
  blocked: BlockedCommand | null;
  folder?: string;
  focus?: Ref<HTMLButtonElement>;
  reason: string;
  onReason: (reason: string) => void;
  onDecide: Props["onDecide"];
}

/** A command the sandbox stopped: why, what it printed, and the choice to
 *  run it once outside the sandbox (full rights) or keep the blocked
 *  result for the model. Never "always": leaving is asked each time. */
function LeaveSandbox({ call, blocked, folder, focus, reason, onReason, onDecide }: LeaveProps) {
  const keep = () => onDecide(call, "deny", reason.trim() || undefined);
  return (
    <div className="approval-call blocked" data-testid="leave-sandbox">
      <div>
        <strong>The sandbox stopped {call.name}</strong>
        <CallDetails call={call} folder={folder} />
        <div className="tool-error" data-testid="blocked-reason">{blocked?.reason ?? "the sandbox refused it"}</div>
        {/* Running outside starts the command over: say so before the
            choice, with what the first run printed already open. */}
        <p className="sandbox-note" data-testid="ran-once">
          It already ran in the sandbox until it was stopped: whatever it did inside this folder before that has
          happened. Running it outside starts the whole command again, so those steps run a second time.
        </p>
        {blocked?.output ? (
          <details open>
            <summary>What it printed</summary>
            <pre>{blocked.output}</pre>
          </details>
        ) : null}
        <small className="sandbox-note full-access">Outside the sandbox it runs with your full rights: it can change any of your files and use the network.</small>
      </div>
      <div className="actions">
        {/* Staying is the default: Enter keeps it, as Esc does. */}
        <button type="button" className="primary" ref={focus} onClick={keep}>Keep it in the sandbox</button>
        <button type="button" className="danger" onClick={() => onDecide(call, "approve")}>Run outside the sandbox</button>
        <input
          className="deny-reason"
          aria-label={`Why keep ${call.name} in the sandbox`}
          placeholder="What should the model do instead? (optional)"
          value={reason}
          onChange={(e) => onReason(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              keep();
            }
          }}
        />
      </div>
    </div>
  );
}

/** The MCP server a tool comes from, by its catalogue name
 *  (`mcp__<server>__<tool>`); null for the others. */
export function mcpServerOf(name: string): string | null {
  const m = /^mcp__([A-Za-z0-9_-]+?)__/.exec(name);
  return m ? m[1] : null;
}
