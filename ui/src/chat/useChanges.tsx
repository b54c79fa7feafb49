// The turns that changed files: a chip after each (files, lines, and
// "Review"), and the review dialog it opens.
import { useCallback, useEffect, useState, type ReactNode } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, TurnChangeCount } from "../generated/protocol";
import { ChangeBadge } from "./ChangeBadge";
import { ChangesDialog } from "./ChangesDialog";

export function useChanges(
  backend: Backend,
  id: ContextId,
  /** Changes when the stored messages do. */
  version: unknown,
  busy: boolean,
  reload: () => void,
): { chipAfter: (from: number, to: number) => ReactNode; dialog: ReactNode } {
  const [turns, setTurns] = useState<TurnChangeCount[]>([]);
  const [reviewing, setReviewing] = useState<number | null>(null);
  useEffect(() => {
    // Counted once a turn is over: its checkpoints are in by then.
    if (busy) return;
    let live = true;
    backend.changedTurns(id).then(
      (t) => live && setTurns(t),
      () => live && setTurns([]),
    );
    return () => {
      live = false;
    };
  }, [backend, id, version, busy]);
  const chipAfter = useCallback(
    // After the item showing messages `from` up to (not with) `to`: a turn
    // may end in a message folded into an item (a tool's result).
    (from: number, to: number) => {
      const t = turns.find((x) => x.last >= from && x.last < to);
      if (!t) return null;
      return (
        <div className="changes-chip" data-testid="changes-chip">
          <ChangeBadge count={t.count} />
          <button type="button" className="link" disabled={busy} onClick={() => setReviewing(t.question)} title="Each file this turn changed, hunk by hunk: keep or undo">
            Review changes
          </button>
        </div>
      );
    },
    [turns, busy],
  );
  const dialog =
    reviewing !== null ? <ChangesDialog backend={backend} id={id} message={reviewing} onClose={() => setReviewing(null)} onUndone={reload} /> : null;
  return { chipAfter, dialog };
}
