import { useCallback, useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { McpSettings, McpWorkspace } from "../generated/protocol";
import { McpSecrets } from "./McpSecrets";
import { McpServerItem, NO_OFFERS, offersOf, type Offers } from "./McpServerItem";
import { HeldTools } from "./HeldTools";
import { withDisabled, without, withExample, withLimits } from "./mcpText";
import { useConfirm } from "../confirm";

/** While a server is starting, its state is asked for again this often. */
const STARTING_POLL_MS = 700;

/** A workspace's `.mcp.json`: its servers are commands someone else
 *  wrote, so they start only once trusted (again after it changes). */
function WorkspaceTrust({ workspace, onTrust }: { workspace: McpWorkspace; onTrust: (trusted: boolean) => void }) {
  return (
    <div className={`mcp-workspace${workspace.trusted ? "" : " untrusted"}`} role="group" aria-label="Workspace MCP servers">
      {workspace.trusted ? (
        <p>
          The servers of <code>{workspace.path}</code> run: you trusted it as it is now.{" "}
          <button type="button" onClick={() => onTrust(false)}>Stop trusting</button>
        </p>
      ) : (
        <p>
          This workspace has <code>{workspace.path}</code>. Its servers are programs from the workspace: they start only if you trust it (and again after it changes).{" "}
          <button type="button" className="primary" onClick={() => onTrust(true)}>Trust and start them</button>
        </p>
      )}
      {workspace.error ? <small className="hint">{workspace.error}</small> : null}
    </div>
  );
}

/** MCP servers: each one's state, tools and last stderr lines, restart,
 *  on/off, limits, remove; the workspace's own servers once trusted; the
 *  secrets the settings name; the settings file itself edited in place (a
 *  file that cannot be used is refused with the reason and the text kept). */
export function McpPanel({ backend }: { backend: Backend }) {
  const confirm = useConfirm();
  const [view, setView] = useState<McpSettings | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => backend.getMcpSettings().then(setView, (e: Error) => setError(e.message)), [backend]);
  useEffect(() => void load(), [load]);
  const starting = view?.servers.some((s) => s.state === "starting") ?? false;
  // What the ready servers offer besides tools, asked for again when the
  // set of ready servers changes.
  const ready = view?.servers.filter((s) => s.state === "ready").map((s) => s.name).join(" ") ?? "";
  const [offers, setOffers] = useState<Offers>(NO_OFFERS);
  useEffect(() => {
    if (!ready) return;
    let live = true;
    Promise.all([backend.listMcpResources(), backend.listMcpTemplates(), backend.listMcpPrompts()]).then(
      ([resources, templates, prompts]) => live && setOffers({ resources, templates, prompts }),
      () => live && setOffers(NO_OFFERS),
    );
    return () => {
      live = false;
    };
  }, [backend, ready]);
  useEffect(() => {
    if (!starting) return;
    const t = setInterval(() => void load(), STARTING_POLL_MS);
    return () => clearInterval(t);
  }, [starting, load]);

  const apply = (next: Promise<McpSettings>) =>
    next.then(
      (v) => (setView(v), setError(null)),
      (e: Error) => setError(e.message),
    );
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
      {view.servers.map((s) => (
        <HeldTools key={`held-${s.name}`} server={s.name} held={s.held}
          onAccept={(tool) => void apply(backend.acceptToolDefinition(s.name, tool))} />
      ))}
      {view.workspace ? <WorkspaceTrust workspace={view.workspace} onTrust={(t) => void apply(backend.trustWorkspaceMcp(t))} /> : null}
      <ul className="mcp-servers">
        {view.servers.map((s) => (
          <McpServerItem key={s.name} server={s} offers={s.state === "ready" ? offersOf(offers, s.name) : NO_OFFERS}
            onRestart={() => backend.restartMcpServer(s.name).then(load, (e: Error) => setError(e.message))}
            onToggle={() => edit((t) => withDisabled(t, s.name, s.state !== "disabled"))}
            onRemove={() => void confirm({ title: "Remove the MCP server?", message: `Remove the MCP server ${s.name}? Its tools leave every conversation.`, confirm: "Remove", danger: true }).then((yes) => yes && edit((t) => without(t, s.name)))}
            onLimits={(startup, call) => edit((t) => withLimits(t, s.name, startup, call))} />
        ))}
      </ul>
      <McpSecrets secrets={view.secrets} onSet={(name, value) => void apply(backend.setMcpSecret(name, value))} />
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
