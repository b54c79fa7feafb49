import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Backend } from "../backend/types";
import type { BranchId, ContextId, ContextSnapshot } from "../generated/protocol";
import type { Reveal } from "./MessageList";
import { rowKeyFor } from "./transcript";

/** A message to open in the chat, from outside it (a search result), or
 *  only a branch to switch to (`message: null`, the conversation list);
 *  `at` tells two requests for the same message apart. */
export interface OpenRequest {
  message: number | null;
  branch: BranchId | null;
  at: number;
}

/** Opening a message in the chat: on its branch when the one in use lacks
 *  it, loaded whole when only the tail was, then brought into view by the
 *  message list. `request` comes from outside and is taken up once the
 *  conversation has loaded. */
export function useReveal(
  backend: Backend,
  id: ContextId,
  snapshot: ContextSnapshot | null,
  reload: () => void,
  onError: (text: string) => void,
  request: OpenRequest | null,
): { open: (message: number, branch: BranchId | null) => void; row: Reveal | null } {
  const [reveal, setReveal] = useState<{ id: number; at: number } | null>(null);
  const open = useCallback(
    (message: number, branch: BranchId | null) => {
      const here = !!snapshot && !snapshot.truncated && snapshot.messages.some((m) => m.id === message);
      if (!here) {
        const elsewhere = branch !== null && branch !== snapshot?.active_branch;
        (elsewhere ? backend.switchBranch(id, branch) : Promise.resolve()).then(reload, (e: Error) => onError(e.message));
      }
      setReveal((r) => ({ id: message, at: (r?.at ?? 0) + 1 }));
    },
    [backend, id, snapshot, reload, onError],
  );
  const taken = useRef<number | null>(null);
  useEffect(() => {
    if (request && snapshot && taken.current !== request.at) {
      taken.current = request.at;
      if (request.message !== null) open(request.message, request.branch);
      else if (request.branch !== null && request.branch !== snapshot.active_branch) {
        backend.switchBranch(id, request.branch).then(reload, (e: Error) => onError(e.message));
      }
    }
  }, [request, snapshot, open, backend, id, reload, onError]);
  const row = useMemo(
    () => (reveal ? { key: rowKeyFor(snapshot?.messages ?? [], reveal.id), at: reveal.at } : null),
    [reveal, snapshot],
  );
  return { open, row };
}
