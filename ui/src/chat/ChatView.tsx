import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Backend } from "../backend/types";
import { BackendError } from "../backend/types";
import type { BraidEvent, ContextId, Message, SettingsView } from "../generated/protocol";
import { Markdown } from "../markdown/Markdown";
import { ChatHeader } from "./ChatHeader";
import { Composer } from "./Composer";
import { isBusy } from "./describe";
import { MessageList, type Row } from "./MessageList";
import { applyEvent, applySnapshot, empty, type ChatModel } from "./model";
import { StateLine } from "./StateLine";

function text(m: Message): string {
  switch (m.body.type) {
    case "text": return m.body.parts.map((p) => p.text).join("");
    case "tool_request": return `${m.body.text ?? ""} [calls ${m.body.calls.map((c) => c.name).join(", ")}]`;
    case "tool_result": return m.body.error ? `Error: ${m.body.error}` : m.body.output;
    case "system_control": return m.body.control.kind === "recovery" ? `Recovered: ${m.body.control.detail}` : `[${m.body.control.kind}]`;
    default: return `[${m.body.type}]`;
  }
}

function who(m: Message): string {
  if (m.body.type === "text") return m.body.role;
  if (m.body.type === "tool_request") return "assistant";
  if (m.body.type === "tool_result") return "tool";
  return "system";
}

/** `onActivity` is told whenever the stored conversation changed (so the
 *  list can show the new count and order). */
interface Props {
  backend: Backend;
  id: ContextId;
  settings: SettingsView | null;
  onActivity?: () => void;
}

export function ChatView({ backend, id, settings, onActivity }: Props) {
  const [model, setModel] = useState<ChatModel>(empty);
  const [error, setError] = useState<string | null>(null);

  // Events are applied in one batch per animation frame: a fast stream
  // re-renders at most once a frame, however many deltas arrive.
  useEffect(() => {
    setModel(empty);
    let pending: BraidEvent[] = [];
    let frame: number | null = null;
    const flush = () => {
      frame = null;
      const batch = pending;
      pending = [];
      setModel((m) => batch.reduce(applyEvent, m));
    };
    const unsubscribe = backend.subscribe(
      id,
      (s) => setModel((m) => applySnapshot(m, s)),
      (e) => {
        pending.push(e);
        frame ??= requestAnimationFrame(flush);
      },
    );
    return () => {
      unsubscribe();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [backend, id]);

  const reload = useCallback(() => {
    backend.loadContext(id).then((s) => {
      setModel((m) => applySnapshot(m, s));
      onActivity?.();
    }, (e) => setError(String(e)));
  }, [backend, id, onActivity]);
  useEffect(() => {
    if (model.stale) reload();
  }, [model.stale, reload]);
  // New settings may change where this conversation's requests go.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else reload();
  }, [settings, reload]);

  const busy = isBusy(model.status);
  const onSend = useCallback(
    (t: string) => {
      setError(null);
      backend
        .sendMessage(id, { body: { type: "text", role: "user", parts: [{ kind: "text", text: t }] } }, busy)
        .catch((e) => setError(e instanceof BackendError ? `${e.code}: ${e.message}` : String(e)));
    },
    [backend, id, busy],
  );
  const report = useCallback((e: unknown) => setError(e instanceof BackendError ? `${e.code}: ${e.message}` : String(e)), []);
  const onCancel = useCallback(() => void backend.cancel(id).catch(report), [backend, id, report]);
  const onRetry = useCallback(() => void backend.retry(id).catch(report), [backend, id, report]);

  const rows: Row[] = useMemo(() => {
    const stored: Row[] = (model.snapshot?.messages ?? []).map((m) => ({
      key: `m${m.id}`,
      render: () => (
        <div className={`message ${who(m)}`}>
          <span className="who">{who(m)}</span>
          {who(m) === "assistant" ? <Markdown source={text(m)} /> : <div className="text">{text(m)}</div>}
        </div>
      ),
    }));
    const drafts: Row[] = Object.entries(model.drafts).map(([mid, t]) => ({
      key: `m${mid}`,
      render: () => (
        <div className="message assistant streaming">
          <span className="who">assistant</span>
          <Markdown source={t} />
        </div>
      ),
    }));
    return stored.concat(drafts);
  }, [model.snapshot, model.drafts]);

  return (
    <section className="chat">
      <ChatHeader backend={backend} snapshot={model.snapshot} settings={settings} onModelChanged={reload} onError={setError} />
      {model.snapshot?.truncated ? (
        <p className="hint">
          Showing the latest {model.snapshot.messages.length} of {model.snapshot.summary.message_count} messages.{" "}
          <button type="button" className="link" onClick={reload}>Show all</button>
        </p>
      ) : null}
      <MessageList rows={rows} />
      {model.queue.length > 0 ? (
        <ul className="queue" aria-label="Queued messages">
          {model.queue.map((q) => (
            <li key={q.message_id}>
              Queued: {q.preview}{" "}
              <button type="button" className="unqueue" onClick={() => void backend.unqueue(id, q.message_id).catch(report)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? <div className="error" role="alert">{error}</div> : null}
      <StateLine status={model.status} notice={model.notice} onRetry={onRetry} />
      <Composer busy={busy} onSend={onSend} onCancel={onCancel} />
    </section>
  );
}
