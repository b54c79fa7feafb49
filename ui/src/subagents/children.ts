// Each task of a `spawn_agents` call as its card shows it: the live view
// while the call runs (the parent's events), else the children stored
// for that call. Pure, so the card and its tests agree.
import type { ChildReport, ChildSummary, ContextId, ContextStatus, SubAgentsView } from "../generated/protocol";
import { describe } from "../chat/describe";

export interface ChildRow {
  name: string;
  /** Set once its conversation exists. */
  id: ContextId | null;
  /** What it is doing or how it ended, in words. */
  state: string;
  ended: "submitted" | "failed" | null;
}

/** How a report reads: submitted, or failed with why, what it took, and
 *  any note on how it ran (a model asked for was not available). */
export function reportText(r: ChildReport): string {
  const note = r.note ? `; ${r.note}` : "";
  const took = `${(r.duration_ms / 1000).toFixed(1)} s, ${r.tokens.toLocaleString("en")} tokens${note}`;
  return r.outcome.kind === "submitted" ? `submitted (${took})` : `failed: ${r.outcome.reason} (${took})`;
}

/** The rows of call `callId`. `live` is the parent's running call (if it
 *  is this one), `states` each live child's state, `stored` the
 *  children stored for the parent. */
export function childRows(
  callId: string,
  live: SubAgentsView | null,
  states: Record<ContextId, ContextStatus>,
  stored: ChildSummary[],
  now: number,
): ChildRow[] {
  if (live && live.call_id === callId) {
    return live.agents.map((a) => {
      const id = a.context_id ?? null;
      if (a.report) return { name: a.name, id, state: reportText(a.report), ended: a.report.outcome.kind };
      if (!id) return { name: a.name, id, state: "waiting for a free slot", ended: null };
      const s = states[id];
      return { name: a.name, id, state: s ? describe(s, now) : "starting…", ended: null };
    });
  }
  return stored
    .filter((c) => c.child.call_id === callId)
    .sort((a, b) => a.child.index - b.child.index)
    .map((c) => {
      const o = c.outcome;
      if (!o) return { name: c.child.name, id: c.context_id, state: describe(c.status, now), ended: null };
      return { name: c.child.name, id: c.context_id, state: o.kind === "submitted" ? "submitted" : `failed: ${o.reason}`, ended: o.kind };
    });
}
