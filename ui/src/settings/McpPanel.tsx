import { useCallback, useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { McpServerStatus, McpSettings } from "../generated/protocol";
import { withDisabled, without, withExample } from "./mcpText";

/** While a server is starting, its state is asked for again this often. */
const STARTING_POLL_MS = 700;

function stateLine(s: McpServerStatus): string {
  switch (s.state) {
    case "starting":
      return "starting…";
    case "ready":
      return `ready · ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}${s.ready_count > 1 ? ` · restarted ${s.ready_count - 1}×` : ""}`;
    case "failed":
      return `failed: ${s.reason ?? "no reason given"}${s.retrying ? " (trying again)" : ""}`;
    case "disabled":
      return "off";
    case "untrusted":
      return "waits for your trust";
  }
}

/** MCP servers: each one's state, tools and last stderr lines, restart,
 *  on/off, remove; the settings file itself edited in place (a file
 *  that cannot be used is refused with the reason and the text kept). */
export function McpPanel({ backend }: { backend: Backend }) {
  const [view, setView] = useState<McpSettings | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => backend.getMcpSettings().then(setView, (e: Error) => setError(e.message)), [backend]);
  useEffect(() => void load(), [load]);
  const starting = view?.servers.some((s) => s.state === "starting") ?? false;
  useEffect(() => {
    if (!starting) return;
    const t = setInterval(() => void load(), STARTING_POLL_MS);
    return () => clearInterval(t);
  }, [starting, load]);

  const save = (text: string) =>
    backend.saveMcpSettings(text).then(
      (v) => {
        setView(v);
        setDraft(null);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  const edit = (change: (text: string) => string) => {
    try {
      void save(change(view?.text ?? ""));
    } catch (e) {
      setError(`The settings file is not valid JSON: ${(e as Error).message}`);
    }
  };
  if (!view) return <section className="mcp" aria-label="MCP servers" aria-busy="true" />;
  return (
    <section className="mcp" aria-label="MCP servers">
      <h2>MCP servers</h2>
      <p className="hint">
        From <code>{view.path}</code>, in the <code>mcpServers</code> form Claude Desktop uses. Their tools are asked before they run, like any other.
      </p>
      {view.error ? <div className="field-error" role="alert">The saved file is not used: {view.error}</div> : null}
      {view.servers.length === 0 && draft === null ? <p className="hint">No MCP server yet.</p> : null}
      <ul className="mcp-servers">
        {view.servers.map((s) => (
          <li key={s.name} data-state={s.state}>
            <div>
              <strong>{s.name}</strong> <span className={`badge mcp-${s.state}`}>{stateLine(s)}</span>
              <small className="mcp-transport">{s.transport}</small>
            </div>
            {s.tools.length > 0 ? (
              <details>
                <summary>Tools</summary>
                <ul className="mcp-tools">{s.tools.map((t) => <li key={t}><code>{t}</code></li>)}</ul>
              </details>
            ) : null}
            {s.stderr.length > 0 ? (
              <details open={s.state === "failed"}>
                <summary>Last lines of its stderr</summary>
                <pre className="mcp-stderr">{s.stderr.join("\n")}</pre>
              </details>
            ) : null}
            <div className="actions">
              {s.state !== "disabled" ? (
                <button type="button" onClick={() => backend.restartMcpServer(s.name).then(load, (e: Error) => setError(e.message))}>Restart</button>
              ) : null}
              <button type="button" onClick={() => edit((t) => withDisabled(t, s.name, s.state !== "disabled"))}>
                {s.state === "disabled" ? "Turn on" : "Turn off"}
              </button>
              <button type="button" className="danger" onClick={() => window.confirm(`Remove the MCP server ${s.name}?`) && edit((t) => without(t, s.name))}>
                Remove
              </button>
            </div>
          </li>
        ))}
      </ul>
      {error ? <div className="field-error" role="alert">{error}</div> : null}
      {draft !== null ? (
        <form className="mcp-editor" onSubmit={(e) => (e.preventDefault(), void save(draft))}>
          <textarea aria-label="MCP settings (JSON)" spellCheck={false} rows={12} value={draft} onChange={(e) => setDraft(e.target.value)}
            // Esc closes the settings; here it would throw away what was typed.
            onKeyDown={(e) => e.key === "Escape" && e.stopPropagation()} />
          <div className="actions">
            <button type="submit" className="primary">Save and apply</button>
            <button type="button" onClick={() => { setDraft(null); setError(null); }}>Cancel</button>
          </div>
        </form>
      ) : (
        <div className="actions">
          <button type="button" onClick={() => setDraft(view.text || '{\n  "mcpServers": {}\n}')}>Edit settings</button>
          <button
            type="button"
            onClick={() => {
              try {
                setDraft(withExample(view.text));
              } catch (e) {
                setError(`The settings file is not valid JSON: ${(e as Error).message}`);
              }
            }}
          >
            Add server
          </button>
        </div>
      )}
    </section>
  );
}
