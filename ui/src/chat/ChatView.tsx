import { useCallback, useEffect, useRef, useState } from "react";
import type { Backend } from "../backend/types";
import { BackendError } from "../backend/types";
import type { BraidEvent, ContextId, Message } from "../generated/protocol";
import { Markdown } from "../markdown/Markdown";
import { Composer } from "./Composer";
import { isBusy } from "./describe";
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
export function ChatView({ backend, id, onActivity }: { backend: Backend; id: ContextId; onActivity?: () => void }) {
  const [model, setModel] = useState<ChatModel>(empty);
  const [error, setError] = useState<string | null>(null);
  const bottom = useRef<HTMLDivElement>(null);

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

  useEffect(() => {
    if (!model.stale) return;
    backend.loadContext(id).then((s) => {
      setModel((m) => applySnapshot(m, s));
      onActivity?.();
    }, (e) => setError(String(e)));
  }, [backend, id, model.stale, onActivity]);

  // Braces matter: scrollIntoView returns a promise in new browsers, and an
  // effect must not return anything but a cleanup function.
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [model.snapshot, model.drafts]);

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

  return (
    <section className="chat">
      <div className="messages">
        {model.snapshot?.messages.map((m) => (
          <div key={m.id} className={`message ${who(m)}`}>
            <span className="who">{who(m)}</span>
            {who(m) === "assistant" ? <Markdown source={text(m)} /> : <div className="text">{text(m)}</div>}
          </div>
        ))}
        {Object.entries(model.drafts).map(([mid, t]) => (
          <div key={`draft-${mid}`} className="message assistant streaming">
            <span className="who">assistant</span>
            <Markdown source={t} />
          </div>
        ))}
        <div ref={bottom} />
      </div>
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
