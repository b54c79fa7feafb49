// What the chat view shows, derived from a snapshot and the events after
// it. Pure: the component holds it in state and loads the snapshot again
// each time `changes` grows. A message that travels with its event is put
// in place; one withheld from it (a large one), the end of a turn and a
// call waiting for approval ask for a load. An event with neither is about
// a message not stored yet (an answer starting to stream) or not shown.
import type { BraidEvent, ContextSnapshot, ContextStatus, Message, Notice, NoticeCode, QueuedPreview, SubAgentsView, TeamRoute } from "../generated/protocol";

/** Notices for the app, not the user (an unreported usage, a new title):
 *  never shown, and never in place of one that is (a server that reports
 *  no usage would hide every notice of its turns). */
const QUIET: NoticeCode[] = ["usage_unreported", "titled"];

export interface ChatModel {
  snapshot: ContextSnapshot | null;
  status: ContextStatus;
  /** Streamed text of answers not yet in the snapshot, by message id. */
  drafts: Record<number, string>;
  queue: QueuedPreview[];
  notice: Notice | null;
  /** A team chain's route while it runs or waits. */
  route: TeamRoute | null;
  /** The running `spawn_agents` call's children. */
  subAgents: SubAgentsView | null;
  /** How many events so far changed the stored messages. Each one asks
   *  for a snapshot taken after it; a count, not a flag, so a change that
   *  lands while a load is in flight is not mistaken for that load. */
  changes: number;
  /** How many events so far changed a stored message, put in place or
   *  not: for what is listed again with every change (the sub-agents). */
  edits: number;
}

export const empty: ChatModel = { snapshot: null, status: { state: "idle" }, drafts: {}, queue: [], notice: null, route: null, subAgents: null, changes: 0, edits: 0 };

const storedIds = new WeakMap<ContextSnapshot, Set<number>>();
/** The ids of a snapshot's messages, computed once per snapshot. */
export function stored(snapshot: ContextSnapshot): Set<number> {
  let ids = storedIds.get(snapshot);
  if (!ids) {
    ids = new Set(snapshot.messages.map((m) => m.id));
    storedIds.set(snapshot, ids);
  }
  return ids;
}

export function applySnapshot(model: ChatModel, snapshot: ContextSnapshot): ChatModel {
  const known = stored(snapshot);
  const drafts: Record<number, string> = Object.fromEntries(Object.entries(model.drafts).filter(([id]) => !known.has(Number(id))));
  // The answer being written, as far as it had streamed: opened mid-answer,
  // the view starts from it. Both it and what the deltas built are the
  // start of one text, so the longer one is the more complete.
  const d = snapshot.draft;
  if (d && !known.has(d.message_id) && d.text.length > (drafts[d.message_id]?.length ?? 0)) drafts[d.message_id] = d.text;
  const queue = snapshot.queued.map((m) => ({ message_id: m.id, preview: m.body.type === "text" ? m.body.parts.map((p) => p.text).join("") : `[${m.body.type}]` }));
  return { ...model, snapshot, status: snapshot.summary.status, drafts, queue, route: snapshot.route ?? null, subAgents: snapshot.sub_agents ?? null };
}

/** `message` in its place in the branch shown, or after the last. */
function placed(snapshot: ContextSnapshot, message: Message): ContextSnapshot {
  const at = snapshot.messages.findIndex((m) => m.id === message.id);
  const messages = at >= 0 ? snapshot.messages.map((m, i) => (i === at ? message : m)) : [...snapshot.messages, message];
  return { ...snapshot, messages };
}

const settled = (s: ContextStatus) => s.state === "idle" || s.state === "failed";

export function applyEvent(model: ChatModel, event: BraidEvent): ChatModel {
  switch (event.event) {
    case "content_delta": {
      // A snapshot can overtake the deltas of its last answer (they wait
      // for the next frame); the answer is then stored, not a draft. Two
      // rows for one message would share a key.
      if (model.snapshot && stored(model.snapshot).has(event.message_id)) return model;
      const prev = model.drafts[event.message_id] ?? "";
      return { ...model, drafts: { ...model.drafts, [event.message_id]: prev + event.delta } };
    }
    case "content_final":
      return model;
    case "context_update": {
      let { drafts, changes, snapshot } = model;
      const life = event.message;
      const change = life?.change;
      if (life && change?.change === "status_changed" && change.status === "discarded") {
        const { [life.message_id]: _dropped, ...rest } = drafts;
        drafts = rest;
      } else if (life?.message && snapshot) {
        // Stored as it is now (created, completed, an approval, an image
        // read again): in place, its draft gone.
        snapshot = placed(snapshot, life.message);
        const { [life.message_id]: _draft, ...rest } = drafts;
        drafts = rest;
      } else if (life?.withheld) {
        // Stored, shown, too large to travel with the event.
        changes += 1;
      }
      // The snapshot once where it holds more than the messages: at a
      // turn's end (usage, files, branches) and when a call waits for the
      // user (its write preview, a file changed under it).
      const entered = event.previous_state !== null && event.previous_state.state !== event.current_state.state;
      const turnEnded = entered && !settled(event.previous_state!) && settled(event.current_state);
      // A new question (not one of those already loaded) is asked too.
      const now = event.current_state;
      const before = model.status;
      const asking =
        now.state === "awaiting_tool_approval" &&
        (before.state !== "awaiting_tool_approval" || now.pending_requests.some((call) => !before.pending_requests.includes(call)));
      if ((turnEnded || asking) && changes === model.changes) changes += 1;
      // A notice belongs to its turn: a new turn starts without the old one.
      const newTurn = event.previous_state !== null && event.current_state.state === "processing_user_message";
      return {
        ...model,
        status: event.current_state,
        queue: event.metadata.queue,
        route: event.metadata.team ?? null,
        subAgents: event.metadata.sub_agents ?? null,
        notice: (event.metadata.notice && !QUIET.includes(event.metadata.notice.code) ? event.metadata.notice : null) ?? (newTurn ? null : model.notice),
        snapshot,
        drafts,
        changes,
        edits: life ? model.edits + 1 : model.edits,
      };
    }
  }
}
