import { useState } from "react";
import type { McpPromptInfo, McpResourceInfo, McpResourceTemplate, McpServerStatus } from "../generated/protocol";
import { counted } from "../counted";

/** What servers offer besides tools. */
export interface Offers {
  resources: McpResourceInfo[];
  templates: McpResourceTemplate[];
  prompts: McpPromptInfo[];
}

export const NO_OFFERS: Offers = { resources: [], templates: [], prompts: [] };

/** Those of one server. */
export function offersOf(all: Offers, server: string): Offers {
  return {
    resources: all.resources.filter((r) => r.server === server),
    templates: all.templates.filter((t) => t.server === server),
    prompts: all.prompts.filter((p) => p.server === server),
  };
}

function stateLine(s: McpServerStatus): string {
  switch (s.state) {
    case "starting":
      return "starting…";
    case "ready":
      return [
        `ready · ${counted(s.tools.length, "tool")}`,
        s.protocol ? `MCP ${s.protocol}` : null,
        s.ready_count > 1 ? `restarted ${s.ready_count - 1}×` : null,
      ].filter(Boolean).join(" · ");
    case "failed":
      return `failed: ${s.reason ?? "no reason given"}${s.retrying ? " (trying again)" : ""}`;
    case "disabled":
      return "off";
    case "untrusted":
      return "waits for you to trust the workspace";
  }
}

interface Props {
  server: McpServerStatus;
  offers: Offers;
  onRestart: () => void;
  onToggle: () => void;
  onRemove: () => void;
  /** New limits, in milliseconds. */
  onLimits: (startupMs: number, callMs: number) => void;
}

/** One server: its state, tools and last stderr lines, and what can be
 *  done with it. A workspace's server is changed in its `.mcp.json`, not
 *  here. */
export function McpServerItem({ server: s, offers, onRestart, onToggle, onRemove, onLimits }: Props) {
  const mine = s.origin === "settings";
  return (
    <li data-state={s.state}>
      <div>
        <strong>{s.name}</strong> <span className={`badge mcp-${s.state}`}>{stateLine(s)}</span>
        {mine ? null : <span className="badge">from the workspace</span>}
        <small className="mcp-transport">{s.transport}</small>
      </div>
      {s.tools.length > 0 ? (
        <details>
          <summary>Tools</summary>
          <ul className="mcp-tools">{s.tools.map((t) => <li key={t}><code>{t}</code></li>)}</ul>
        </details>
      ) : null}
      {s.refused.length > 0 ? (
        <div className="field-error" data-testid="mcp-refused">
          Not offered: {s.refused.join("; ")}
        </div>
      ) : null}
      <Listed title="Resources" items={[...offers.resources.map((r) => r.uri), ...offers.templates.map((t) => t.uri_template)]} />
      <Listed title="Prompts" items={offers.prompts.map((p) => `/${p.server}:${p.name}`)} />
      {s.stderr.length > 0 ? (
        <details open={s.state === "failed"}>
          <summary>Last lines of its stderr</summary>
          <pre className="mcp-stderr">{s.stderr.join("\n")}</pre>
        </details>
      ) : null}
      {mine ? <Limits server={s} onLimits={onLimits} /> : null}
      <div className="actions">
        {s.state !== "disabled" && s.state !== "untrusted" ? <button type="button" onClick={onRestart}>Restart</button> : null}
        {mine ? (
          <>
            <button type="button" onClick={onToggle}>{s.state === "disabled" ? "Turn on" : "Turn off"}</button>
            <button type="button" className="danger" onClick={onRemove}>Remove</button>
          </>
        ) : null}
      </div>
    </li>
  );
}

/** A folded list of what the server offers, when it offers any. */
function Listed({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <details>
      <summary>{title} ({items.length})</summary>
      <ul className="mcp-tools">{items.map((i) => <li key={i}><code>{i}</code></li>)}</ul>
    </details>
  );
}

/** How long the server may take to start, and one call, in seconds. */
function Limits({ server, onLimits }: { server: McpServerStatus; onLimits: Props["onLimits"] }) {
  const [startup, setStartup] = useState(String(server.startup_timeout_ms / 1000));
  const [call, setCall] = useState(String(server.call_timeout_ms / 1000));
  const seconds = (v: string) => (/^\d+(\.\d+)?$/.test(v.trim()) && Number(v) > 0 ? Math.round(Number(v) * 1000) : null);
  const [s, c] = [seconds(startup), seconds(call)];
  return (
    <details>
      <summary>Limits: {server.startup_timeout_ms / 1000} s to start, {server.call_timeout_ms / 1000} s per call</summary>
      <form className="mcp-limits" onSubmit={(e) => (e.preventDefault(), s && c && onLimits(s, c))}>
        <label>
          Start-up limit (s)
          <input inputMode="decimal" value={startup} aria-invalid={s === null} onChange={(e) => setStartup(e.target.value)} />
        </label>
        <label>
          Limit per call (s)
          <input inputMode="decimal" value={call} aria-invalid={c === null} onChange={(e) => setCall(e.target.value)} />
        </label>
        <button type="submit" disabled={!s || !c} title={s && c ? "Save and restart the server" : "Each limit is a number of seconds above 0"}>Save limits</button>
      </form>
    </details>
  );
}
