// A parent conversation's sub-agents in its view: each live child's state
// (one subscription per child still working), the calls a child waits to
// have approved — asked in the parent's own approval area, under the
// child's name — and the stored children, so a finished call's card still
// opens them.
import { createContext, useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import type { Backend } from "../backend/types";
import type { ChildSummary, ContextId, ContextSnapshot, ContextStatus, SubAgentsView, ToolCall } from "../generated/protocol";
import { ApprovalPanel } from "../chat/ApprovalPanel";

export interface SubAgentsValue {
  live: SubAgentsView | null;
  states: Record<ContextId, ContextStatus>;
  stored: ChildSummary[];
  /** Opens a child's conversation; null where none can be opened. */
  open: ((id: ContextId) => void) | null;
  /** Stops one child (its siblings go on; the parent hears it was
   *  cancelled); absent where none can be stopped. */
  stop?: (id: ContextId) => void;
  /** Shows one child's conversation live beside the parent. */
  watch?: (id: ContextId, name: string) => void;
}

export const SubAgents = createContext<SubAgentsValue>({ live: null, states: {}, stored: [], open: null });

/** The calls of a child's last tool request still waiting for the user. */
export function waitingCalls(snapshot: ContextSnapshot): ToolCall[] {
  if (snapshot.summary.status.state !== "awaiting_tool_approval") return [];
  for (let i = snapshot.messages.length - 1; i >= 0; i--) {
    const body = snapshot.messages[i].body;
    if (body.type === "tool_request") return body.calls.filter((c) => c.approval === "pending" || c.approval === "ask_unsandboxed");
  }
  return [];
}

/** `changes` grows when the parent's stored messages change: the stored
 *  children are listed again then. */
export function useSubAgents(
  backend: Backend,
  parent: ContextId,
  live: SubAgentsView | null,
  changes: number,
  open: SubAgentsValue["open"],
  onError: (e: Error) => void,
  noSandbox: string | null,
) {
  const [states, setStates] = useState<Record<ContextId, ContextStatus>>({});
  /** Each child's calls waiting for the user, with its snapshot (its
   *  sandbox and folder, for the dialog). */
  const [asking, setAsking] = useState<Record<ContextId, { calls: ToolCall[]; snapshot: ContextSnapshot }>>({});
  const [stored, setStored] = useState<ChildSummary[]>([]);
  const working = useMemo(() => (live?.agents ?? []).filter((a) => a.context_id && !a.report).map((a) => a.context_id as ContextId), [live]);
  const key = working.join(" ");

  useEffect(() => {
    let live = true;
    backend.listChildren(parent).then((c) => live && setStored(c), onError);
    return () => {
      live = false;
    };
  }, [backend, parent, changes, key, onError]);

  useEffect(() => {
    const stops = working.map((child) => {
      const seen = (s: ContextSnapshot) => {
        setStates((x) => ({ ...x, [child]: s.summary.status }));
        setAsking((x) => ({ ...x, [child]: { calls: waitingCalls(s), snapshot: s } }));
      };
      return backend.subscribe(
        child,
        seen,
        (e) => {
          if (e.event !== "context_update") return;
          setStates((x) => ({ ...x, [child]: e.current_state }));
          // The calls themselves are in the child's messages.
          if (e.current_state.state === "awaiting_tool_approval") backend.loadContext(child).then(seen, onError);
          else setAsking(({ [child]: _done, ...rest }) => rest);
        },
        () => backend.loadContext(child).then(seen, onError),
      );
    });
    return () => stops.forEach((stop) => stop());
    // `key` names the children `working` holds.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [backend, key, onError]);

  const stop = useCallback((child: ContextId) => void backend.cancel(child).catch(onError), [backend, onError]);
  const value = useMemo(() => ({ live, states, stored, open, stop }), [live, states, stored, open, stop]);
  const names = Object.fromEntries((live?.agents ?? []).map((a) => [a.context_id ?? "", a.name]));
  const approvals: ReactNode = working
    .filter((child) => asking[child]?.calls.length)
    .map((child) => (
      <ApprovalPanel
        key={child}
        from={names[child] ?? "sub-agent"}
        calls={asking[child].calls}
        tools={asking[child].snapshot.tools}
        folder={asking[child].snapshot.summary.working_dir}
        blocked={asking[child].snapshot.blocked}
        secrets={asking[child].snapshot.secret_uses}
        prompted={asking[child].snapshot.prompted}
        noSandbox={noSandbox}
        onDecide={(call, decision, reason) => void backend.decideToolCall(child, call.id, decision, reason ?? null).catch(onError)}
      />
    ));
  return { value, approvals };
}
