import { useEffect, useRef } from "react";
import type { ApprovalDecision, FileInPlay, ToolCall, ToolSettings } from "../generated/protocol";

interface Props {
  calls: ToolCall[];
  tools: ToolSettings | null;
  /** To warn before a write over a file changed outside Braid. */
  files?: FileInPlay[];
  onDecide: (call: ToolCall, decision: ApprovalDecision) => void;
}

function pretty(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

/** The calls waiting for the user. The first Approve has the focus: Enter
 *  approves, Tab reaches Deny. */
/** The path a write or edit call targets, if it changed outside Braid. */
export function changedTarget(call: ToolCall, files: FileInPlay[]): string | null {
  if (call.name !== "write_file" && call.name !== "edit_file") return null;
  try {
    const path = String(JSON.parse(call.arguments).path ?? "").replace(/^\.\//, "");
    return files.some((f) => f.path === path && f.state === "changed_outside") ? path : null;
  } catch {
    return null;
  }
}

export function ApprovalPanel({ calls, tools, files = [], onDecide }: Props) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), [calls.length]);
  if (calls.length === 0) return null;
  return (
    <section className="approval" role="dialog" aria-label="Approve tool calls">
      <header>
        The model wants to run {calls.length === 1 ? "a tool" : `${calls.length} tools`}
        {calls.length > 1 ? (
          <button type="button" className="approve-all" onClick={() => onDecide(calls[0], "approve_all")}>Approve all {calls.length}</button>
        ) : null}
      </header>
      {calls.map((c, i) => (
        <div key={c.id} className="approval-call">
          <div>
            <strong>{c.name}</strong>
            <pre>{pretty(c.arguments)}</pre>
            {changedTarget(c, files) ? (
              <div className="tool-error">{changedTarget(c, files)} changed outside Braid since the model read it: approving as is lets the tool refuse; overwriting replaces those changes.</div>
            ) : null}
          </div>
          <div className="actions">
            <button type="button" className="primary" ref={i === 0 ? first : undefined} onClick={() => onDecide(c, "approve")}>
              Approve
            </button>
            <button type="button" className="danger" onClick={() => onDecide(c, "deny")}>Deny</button>
            {changedTarget(c, files) ? (
              <button type="button" onClick={() => onDecide(c, "approve_overwrite")}>Approve and overwrite</button>
            ) : null}
            {tools?.always_ask.includes(c.name) ? null : (
              <button type="button" onClick={() => onDecide(c, "always_allow")} title="Run every later call of this tool in this conversation without asking">
                Always allow {c.name}
              </button>
            )}
          </div>
        </div>
      ))}
    </section>
  );
}
