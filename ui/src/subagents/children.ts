// Each task of a `spawn_agents` call as its card shows it: the live view
// while the call runs (the parent's events), else the children stored
// for that call. Pure, so the card and its tests agree.
import type { ChildReport, ChildSummary, ChildWorkspace, ContextId, ContextStatus, SubAgentsView } from "../generated/protocol";
import { describe } from "../chat/describe";
import { counted } from "../counted";

export interface ChildRow {
  name: string;
  /** Set once its conversation exists. */
  id: ContextId | null;
  /** What it is doing or how it ended, in words. */
  state: string;
  ended: "submitted" | "failed" | null;
  /** Where it works when that is a copy of its own: a label, and the
   *  folder (with what came back, once it has) for its tooltip. */
  copy: { label: string; detail: string } | null;
}

/** A child's own copy, after it ended: what came back and what stayed. */
export function copyText(w: ChildWorkspace): { label: string; detail: string } {
  const own = w.kind === "git_worktree" ? "own git worktree" : "own copy";
  const none = w.kept.length ? "nothing merged back" : "no file changed";
  const parts = [w.merged.length ? `${counted(w.merged.length, "file")} merged back` : none];
  if (w.conflicts.length) parts.push(`conflict markers in ${w.conflicts.join(", ")}`);
  if (w.kept.length) parts.push(`kept in the copy: ${w.kept.join(", ")}`);
  const detail = [w.folder, ...(w.merged.length ? [`merged: ${w.merged.join(", ")}`] : []), ...(w.problem ? [w.problem] : [])];
  return { label: `${own} · ${parts.join(" · ")}`, detail: detail.join("\n") };
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
      const working = a.isolated ? { label: "own copy", detail: "works in a copy of the workspace, merged back when it submits" } : null;
      if (a.report) {
        const copy = a.report.workspace ? copyText(a.report.workspace) : working;
        return { name: a.name, id, state: reportText(a.report), ended: a.report.outcome.kind, copy };
      }
      if (!id) return { name: a.name, id, state: "waiting for a free slot", ended: null, copy: working };
      const s = states[id];
      return { name: a.name, id, state: s ? describe(s, now) : "starting…", ended: null, copy: working };
    });
  }
  return stored
    .filter((c) => c.child.call_id === callId)
    .sort((a, b) => a.child.index - b.child.index)
    .map((c) => {
      const o = c.outcome;
      const copy = c.returned ? copyText(c.returned) : c.child.workspace ? { label: "own copy", detail: c.child.workspace } : null;
      if (!o) return { name: c.child.name, id: c.context_id, state: describe(c.status, now), ended: null, copy };
      return { name: c.child.name, id: c.context_id, state: o.kind === "submitted" ? "submitted" : `failed: ${o.reason}`, ended: o.kind, copy };
    });
}
