import { useState } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, Message, QueueChange, QueuedPreview, TeamRoute } from "../generated/protocol";
import { RouteBar } from "../team/RouteBar";

/** What waits its turn: messages queued while busy — each can be edited,
 *  moved up or down, sent now (the answer being written stops, kept) or
 *  removed — and a team chain's members. */
export function Waiting({ backend, id, queue, full, route, onError }: { backend: Backend; id: ContextId; queue: QueuedPreview[]; full: Message[]; route: TeamRoute | null; onError: (e: unknown) => void }) {
  const [editing, setEditing] = useState<{ id: number; text: string } | null>(null);
  const change = (message: number, c: QueueChange) => void backend.editQueued(id, message, c).catch(onError);
  // The whole text (the preview is cut at 120 characters).
  const textOf = (q: QueuedPreview) => {
    const m = full.find((f) => f.id === q.message_id);
    const text = m?.body.type === "text" ? m.body.parts.map((p) => p.text).join("") : "";
    // The snapshot's copy may predate an edit: then the preview is newer.
    return text.startsWith(q.preview.replace(/…$/, "")) ? text : q.preview;
  };
  const save = () => {
    if (editing && editing.text.trim()) change(editing.id, { kind: "edit", text: editing.text });
    setEditing(null);
  };
  return (
    <>
      <RouteBar route={route} onSteer={(action) => void backend.steerTeam(id, action).catch(onError)} />
      {queue.length > 0 ? (
        <ol className="queue" aria-label="Queue">
          {queue.map((q, i) => (
            <li key={q.message_id}>
              {editing?.id === q.message_id ? (
                <textarea
                  aria-label="Queued text"
                  autoFocus
                  rows={2}
                  value={editing.text}
                  onChange={(e) => setEditing({ id: q.message_id, text: e.target.value })}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" && !e.shiftKey) {
                      e.preventDefault();
                      save();
                    }
                    if (e.key === "Escape") {
                      e.stopPropagation();
                      setEditing(null);
                    }
                  }}
                  onBlur={save}
                />
              ) : (
                <span className="queued-text">Queued: {q.preview}</span>
              )}
              <span className="queue-actions">
                <button type="button" className="link" aria-label={`Edit queued ${i + 1}`} onClick={() => setEditing({ id: q.message_id, text: textOf(q) })}>Edit</button>
                <button type="button" className="icon" aria-label={`Move queued ${i + 1} up`} disabled={i === 0} onClick={() => change(q.message_id, { kind: "move", to: i - 1 })}>↑</button>
                <button type="button" className="icon" aria-label={`Move queued ${i + 1} down`} disabled={i === queue.length - 1} onClick={() => change(q.message_id, { kind: "move", to: i + 1 })}>↓</button>
                <button type="button" className="link" title="Stop the answer being written (what it wrote is kept) and send this one now" onClick={() => change(q.message_id, { kind: "send_now" })}>Send now</button>
                <button type="button" className="unqueue" onClick={() => void backend.unqueue(id, q.message_id).catch(onError)}>Remove</button>
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </>
  );
}
