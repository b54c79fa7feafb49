import type { ToolView } from "./transcript";
import { argsSummary } from "./transcript";
import { CODEBASE_TOOLS } from "./codeLinks";
import { LinkedOutput } from "./LinkedOutput";
import { ChildRows } from "../subagents/ChildRows";

const STATUS: Record<string, string> = { success: "done", error: "failed", cancelled: "cancelled" };

/** The sandbox a command ran in, from its result's first line
 *  ("sandbox: workspace-write, network off"); full access flagged. */
export function sandboxOf(output: string | undefined): { text: string; full: boolean } | null {
  const first = output?.split("\n", 1)[0] ?? "";
  if (!first.startsWith("sandbox: ")) return null;
  const text = first.slice("sandbox: ".length);
  if (!text.startsWith("none")) return { text: `sandbox: ${text}`, full: false };
  return { text: text.includes("this machine has none") ? "no sandbox on this machine" : "no sandbox (full access)", full: true };
}

/** A call's state in words; a command the sandbox stopped says so. */
function stateOf({ call, result }: ToolView): string {
  if (call.approval === "ask_unsandboxed") return "blocked by the sandbox: asking to run it outside";
  if (result?.error?.includes("blocked by the sandbox")) return "blocked by the sandbox";
  if (call.approval === "denied") return "denied";
  if (result) return STATUS[result.status];
  return call.approval === "pending" ? "awaiting approval" : "running…";
}

/** An output kept from the model because the call ran with a secret: what
 *  the tool printed, for the user to read, and the choice to let the model
 *  have it. */
function Withheld({ withheld, onRelease }: { withheld: NonNullable<ToolView["withheld"]>; onRelease?: (message: number) => void }) {
  const { held, message } = withheld;
  if (held.released) {
    return <small className="badge withheld-released" data-testid="withheld-released">released to the model by you</small>;
  }
  const printed = [held.output, held.error].filter(Boolean).join("\n");
  return (
    <div className="tool-withheld" data-testid="withheld">
      <p>
        Kept from the model: this call ran with {held.secrets.join(", ")}, and what it printed may contain it. The model
        was told the output is withheld.
      </p>
      <details>
        <summary>What it printed ({printed.split("\n").length} lines)</summary>
        <pre>{printed}</pre>
      </details>
      {onRelease ? (
        <button type="button" onClick={() => onRelease(message)} title="The model gets this output from the next request on">
          Release to the model
        </button>
      ) : null}
    </div>
  );
}

/** One call: name, arguments, approval, and its result when there is one
 *  (output folded away; errors shown). */
export function ToolCard({ tool, onRelease }: { tool: ToolView; onRelease?: (message: number) => void }) {
  const { call, result, withheld } = tool;
  const ran = call.name === "run_command" ? sandboxOf(result?.output) : null;
  // Stopped by the sandbox, then let out by the user: said as such.
  const sandbox = ran && call.approval === "approved_unsandboxed" ? { text: "run outside the sandbox (you approved)", full: true } : ran;
  const state = stateOf(tool);
  return (
    <div className={`tool-card tool-${result?.status ?? call.approval}`} data-testid="tool-card">
      <div className="tool-head">
        <span className="tool-name">{call.name}</span>
        <span className="tool-args" title={call.arguments}>{argsSummary(call.arguments)}</span>
        {sandbox ? <span className={`badge sandbox-badge${sandbox.full ? " full-access" : ""}`} data-testid="sandbox-badge">{sandbox.text}</span> : null}
        <span className="tool-state">{state}{result && result.duration_ms ? ` · ${result.duration_ms} ms` : ""}</span>
      </div>
      {call.name === "spawn_agents" ? <ChildRows callId={call.id} /> : null}
      {withheld ? <Withheld withheld={withheld} onRelease={onRelease} /> : null}
      {withheld && !withheld.held.released ? null : result?.error ? <div className="tool-error">{result.error}</div> : null}
      {withheld && !withheld.held.released ? null : result?.output && CODEBASE_TOOLS.has(call.name) ? (
        <details>
          <summary>{result.output.split("\n", 1)[0]}</summary>
          <LinkedOutput output={result.output} />
        </details>
      ) : result?.output ? (
        <details>
          <summary>Output ({result.output.split("\n").length} lines)</summary>
          <pre>{result.output}</pre>
        </details>
      ) : null}
    </div>
  );
}
