// What each conversation is doing, at a glance, from its state: running
// (and with what), waiting for the user, failed, or done since the user
// last looked. Pure, so it is tested alone; the list follows the states
// the backend pushes (`useLife`).
import { useCallback, useEffect, useRef, useState } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, ContextStatus, ContextSummary, ContextUpdate } from "../generated/protocol";

export type Life =
  | { kind: "running"; text: string }
  | { kind: "waiting"; text: string }
  | { kind: "failed"; text: string }
  | { kind: "done"; text: string };

/** How a state reads in the list; `unread`: it finished while the user
 *  was elsewhere. Idle and never left is nothing to show. */
export function lifeOf(status: ContextStatus, unread: boolean): Life | null {
  switch (status.state) {
    case "idle":
      return unread ? { kind: "done", text: "Done" } : null;
    case "awaiting_tool_approval":
      return { kind: "waiting", text: `Needs your approval: ${status.tool_names.join(", ") || "a tool"}` };
    case "failed":
      return { kind: "failed", text: `Failed: ${status.message}` };
    case "streaming_llm_response":
      return { kind: "running", text: "Writing…" };
    case "executing_tool":
      return { kind: "running", text: `Running ${status.tool_name}` };
    case "awaiting_sub_agents":
      return { kind: "running", text: `Sub-agents ${status.done}/${status.total}` };
    case "retrying_llm_request":
      return { kind: "running", text: `Retrying (${status.attempt}/${status.max})` };
    case "summarizing":
      return { kind: "running", text: "Summarising…" };
    default:
      return { kind: "running", text: "Working…" };
  }
}

/** Whether the user is wanted: an approval, a failure, or a finished
 *  answer not read yet. */
export function needsMe(life: Life | null): boolean {
  return life !== null && life.kind !== "running";
}

/** Each conversation's state as the backend pushes it, and which finished
 *  a turn while the user was elsewhere (until opened). `reload`: the list
 *  is loaded again — when a turn ends (its counts changed) or when some
 *  changes were missed. */
export function useLife(backend: Backend, selected: ContextId | null, reload: () => void, onUpdate?: (u: ContextUpdate) => void) {
  const [states, setStates] = useState<ReadonlyMap<ContextId, ContextStatus>>(new Map());
  const [unread, setUnread] = useState<ReadonlySet<ContextId>>(new Set());
  const front = useRef(selected);
  front.current = selected;
  const also = useRef(onUpdate);
  also.current = onUpdate;
  useEffect(
    () =>
      backend.subscribeStates((u) => {
        also.current?.(u);
        setStates((m) => new Map(m).set(u.context_id, u.current_state));
        const was = u.previous_state?.state;
        const finished = u.current_state.state === "idle" && was !== undefined && was !== "idle" && was !== "failed";
        if (finished && u.context_id !== front.current) setUnread((s) => new Set(s).add(u.context_id));
        if (finished || u.current_state.state === "failed") reload();
      }, reload),
    [backend, reload],
  );
  useEffect(() => {
    if (selected === null) return;
    setUnread((s) => {
      if (!s.has(selected)) return s;
      const next = new Set(s);
      next.delete(selected);
      return next;
    });
  }, [selected]);
  return useCallback((c: ContextSummary) => lifeOf(states.get(c.id) ?? c.status, unread.has(c.id)), [states, unread]);
}
