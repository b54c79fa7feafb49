import { useEffect, useRef, useState } from "react";
import type { Backend } from "../backend/types";
import type { BreakdownAction, BreakdownCategory, BreakdownPart, ContextBreakdown, ContextId, ContextSnapshot } from "../generated/protocol";
import { counted } from "../counted";
import { SentDialog } from "../chat/SentDialog";
import { FittingSettings } from "./FittingSettings";

/** What each part of a request is, in words. */
export const CATEGORY_LABEL: Record<BreakdownCategory, string> = {
  base_prompt: "Base prompt",
  instructions: "Project instructions",
  team: "Team",
  tools: "Tool definitions",
  summary: "Summaries",
  messages: "Messages",
  files: "Files (@)",
  images: "Images",
  resources: "MCP resources",
  draft: "What you are typing",
  chat_format: "Chat format (the server's)",
};

const ACTION_LABEL: Record<BreakdownAction["kind"], string> = {
  drop_tools: "Drop for this conversation",
  offer_tools: "Offer again",
  keep: "Keep",
  unkeep: "Unpin",
  leave_out: "Leave out",
  include: "Send again",
  summarize_up_to: "Summarise up to here",
  undo_summary: "Undo summary",
};

const fmt = (n: number) => n.toLocaleString("en-US");
const share = (tokens: number, window: number) => (window ? `${((tokens / window) * 100).toFixed(tokens / window < 0.1 ? 1 : 0)} %` : "");

interface Props {
  backend: Backend;
  id: ContextId;
  /** The text in the composer: counted as the next message, live. */
  draft: string;
  snapshot: ContextSnapshot;
  busy: boolean;
  onClose: () => void;
  /** Something changed what is sent: the conversation is read again. */
  onChanged: () => void;
  onError: (e: unknown) => void;
}

/** The `/context` view: what the next request would hold, by part, with
 *  the reserve for the answer and what is left out, and per item what
 *  frees its room. Counted by the backend with the request's own counts. */
export function ContextPanel({ backend, id, draft, snapshot, busy, onClose, onChanged, onError }: Props) {
  const [b, setB] = useState<ContextBreakdown | null>(null);
  const [seeing, setSeeing] = useState(false);
  const [compacting, setCompacting] = useState<string | null>(null);
  const panel = useRef<HTMLElement>(null);
  // Counted again when the draft rests for a moment or the conversation
  // changes; an answer that arrives late for an older draft is dropped.
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      backend.contextBreakdown(id, draft).then((r) => live && setB(r), (e) => live && onError(e));
    }, draft ? 200 : 0);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [backend, id, draft, snapshot, onError]);
  useEffect(() => panel.current?.focus(), []);

  const act = (a: BreakdownAction) => {
    const done = (() => {
      switch (a.kind) {
        case "drop_tools": return backend.setToolGroup(id, a.group, false);
        case "offer_tools": return backend.setToolGroup(id, a.group, true);
        case "keep": return backend.keepInContext(id, a.message, true);
        case "unkeep": return backend.keepInContext(id, a.message, false);
        case "leave_out": return backend.leaveOutOfContext(id, a.message, true);
        case "include": return backend.leaveOutOfContext(id, a.message, false);
        case "summarize_up_to": return backend.compactContext(id, null, { kind: "up_to", message: a.message }, true);
        case "undo_summary": return backend.undoSummary(id, a.message);
      }
    })();
    done.then(onChanged, onError);
  };
  const compact = (instructions: string) => {
    setCompacting(null);
    backend.compactContext(id, instructions.trim() || null, { kind: "all" }, true).then(onChanged, onError);
  };

  const used = b ? b.total : 0;
  const level = b && b.window ? (used + b.reserved_output) / b.window : 0;
  return (
    <aside
      ref={panel}
      className="context-panel"
      aria-label="Context window"
      tabIndex={-1}
      data-testid="context-panel"
      onKeyDown={(e) => {
        if (e.key === "Escape" && !seeing) {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <header>
        <h2>Context window</h2>
        <button type="button" className="link" aria-label="Close the context view" onClick={onClose}>✕</button>
      </header>
      {!b ? (
        <p className="hint">Counting…</p>
      ) : (
        <>
          <p data-testid="context-total">
            <strong>{fmt(used)}</strong> of {fmt(b.window)} tokens ({share(used, b.window)}) for {b.model} · {fmt(b.reserved_output)} kept for the answer
            {b.counted_by_server ? " · counted by the model's server" : b.estimated ? " · estimated" : ""}
          </p>
          <div className={`context-bar${level > 0.92 ? " full" : level > 0.8 ? " warn" : ""}`} role="img" aria-label={`${share(used + b.reserved_output, b.window)} of the window taken, the answer's reserve included`}>
            {b.parts.map((p) => <div key={p.category} className={`cat-${p.category}`} style={{ width: `${(p.tokens / b.window) * 100}%` }} title={`${CATEGORY_LABEL[p.category]}: ${fmt(p.tokens)}`} />)}
            <div className="cat-reserve" style={{ width: `${(b.reserved_output / b.window) * 100}%` }} title={`Reserved for the answer: ${fmt(b.reserved_output)}`} />
            {b.summarize_at_percent > 0 ? <span className="threshold" style={{ left: `${b.summarize_at_percent}%` }} title={`Summaries start at ${b.summarize_at_percent} %`} /> : null}
          </div>
          {b.too_large ? <p className="error" role="alert">{b.too_large}</p> : null}
          {b.would_summarize ? (
            <p className="warn-line" data-testid="will-summarize">
              The next request passes {b.summarize_at_percent} % of the window: older messages will be summarised first.{" "}
              <button type="button" className="link" disabled={busy} onClick={() => compact("")}>Preview the summary now</button>
            </p>
          ) : null}
          {b.left_out > 0 ? (
            <p className="hint" data-testid="context-left-out">{counted(b.left_out, "older message")} ({fmt(b.left_out_tokens)} tokens) left out to fit; they stay in the history.</p>
          ) : null}
          <ul className="context-parts">
            {b.parts.map((p) => <PartRow key={p.category} part={p} window={b.window} busy={busy} onAct={act} />)}
          </ul>
        </>
      )}
      <div className="context-buttons">
        {compacting === null ? (
          <button type="button" disabled={busy} onClick={() => setCompacting("")} title="Summarise everything but the last exchange; you see the summary first (/compact)">Compact now…</button>
        ) : (
          <form className="compact-form" onSubmit={(e) => { e.preventDefault(); compact(compacting); }}>
            <input aria-label="What the summary must keep" placeholder="What to keep (optional): e.g. the numbers" autoFocus value={compacting} onChange={(e) => setCompacting(e.target.value)} />
            <button type="submit" className="primary" disabled={busy}>Summarise</button>
            <button type="button" onClick={() => setCompacting(null)}>Cancel</button>
          </form>
        )}
        <button type="button" className="link" onClick={() => setSeeing(true)} title="Ctrl+Shift+I">What the model saw last</button>
      </div>
      <FittingSettings backend={backend} id={id} snapshot={snapshot} onChanged={onChanged} onError={onError} />
      {seeing ? <SentDialog backend={backend} id={id} onClose={() => setSeeing(false)} /> : null}
    </aside>
  );
}

function PartRow({ part, window, busy, onAct }: { part: BreakdownPart; window: number; busy: boolean; onAct: (a: BreakdownAction) => void }) {
  return (
    <li className={`context-part cat-${part.category}`} data-testid={`part-${part.category}`}>
      <details>
        <summary>
          <span className="swatch" aria-hidden="true" />
          <span className="name">{CATEGORY_LABEL[part.category]}</span>
          <span className="tokens">{fmt(part.tokens)}</span>
          <span className="share">{share(part.tokens, window)}</span>
        </summary>
        <ul>
          {part.items.map((item, i) => (
            <li key={`${item.label}-${i}`} className={item.sent ? "" : "not-sent"}>
              <span className="name" title={item.label}>{item.label}</span>
              <span className="tokens">{item.tokens ? fmt(item.tokens) : ""}</span>
              {item.actions.map((a) => (
                <button key={a.kind} type="button" className="link" disabled={busy} onClick={() => onAct(a)}>{ACTION_LABEL[a.kind]}</button>
              ))}
            </li>
          ))}
        </ul>
      </details>
    </li>
  );
}
