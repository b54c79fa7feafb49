// What the chat view shows, derived from a snapshot and the events after
// it. Pure: the component holds it in state and reloads the snapshot when
// `stale` says a message entered the pool.
import type { BraidEvent, ContextSnapshot, ContextStatus, Notice, QueuedPreview } from "../generated/protocol";

export interface ChatModel {
  snapshot: ContextSnapshot | null;
  status: ContextStatus;
  /** Streamed text of answers not yet in the snapshot, by message id. */
  drafts: Record<number, string>;
  queue: QueuedPreview[];
  notice: Notice | null;
  /** A message was created or completed: fetch the snapshot again. */
  stale: boolean;
}

export const empty: ChatModel = { snapshot: null, status: { state: "idle" }, drafts: {}, queue: [], notice: null, stale: false };

export function applySnapshot(model: ChatModel, snapshot: ContextSnapshot): ChatModel {
  const known = new Set(snapshot.messages.map((m) => m.id));
  const drafts = Object.fromEntries(Object.entries(model.drafts).filter(([id]) => !known.has(Number(id))));
  const queue = snapshot.queued.map((m) => ({ message_id: m.id, preview: m.body.type === "text" ? m.body.parts.map((p) => p.text).join("") : `[${m.body.type}]` }));
  return { ...model, snapshot, status: snapshot.summary.status, drafts, queue, stale: false };
}

export function applyEvent(model: ChatModel, event: BraidEvent): ChatModel {
  switch (event.event) {
    case "content_delta": {
      const prev = model.drafts[event.message_id] ?? "";
      return { ...model, drafts: { ...model.drafts, [event.message_id]: prev + event.delta } };
    }
    case "content_final":
      return model;
    case "context_update": {
      let { drafts, stale } = model;
      const change = event.message?.change;
      if (change && change.change === "status_changed" && change.status === "discarded" && event.message) {
        const { [event.message.message_id]: _dropped, ...rest } = drafts;
        drafts = rest;
      } else if (change && (change.change === "completed" || (change.change === "created" && !(event.message!.message_id in drafts)))) {
        stale = true;
      } else if (change && change.change === "status_changed") {
        // A stored message changed (an approval, an image read again).
        stale = true;
      }
      // A notice belongs to its turn: a new turn starts without the old one.
      const newTurn = event.previous_state !== null && event.current_state.state === "processing_user_message";
      return {
        ...model,
        status: event.current_state,
        queue: event.metadata.queue,
        notice: event.metadata.notice ?? (newTurn ? null : model.notice),
        drafts,
        stale,
      };
    }
  }
}
