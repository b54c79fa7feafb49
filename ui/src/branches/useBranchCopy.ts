// A branch's own copy of the workspace: given on request, removed on
// request, with the branch, or after its merge. Braid refuses to remove a
// copy holding changes the conversation's folder lacks; the user is then
// asked, with the files named, and only discarding them removes it.
import { useCallback } from "react";
import type { Backend } from "../backend/types";
import type { BranchId, ContextId } from "../generated/protocol";
import { useConfirm } from "../confirm";

/** How Braid words that refusal (`braid-runtime/src/branch_copies.rs`). */
const HOLDS = "holds changes the conversation's folder does not have";

export function useBranchCopy(backend: Backend, id: ContextId, reload: () => void, report: (e: unknown) => void) {
  const confirm = useConfirm();
  /** Runs `act`; refused for the copy's changes, asks, and on yes removes
   *  the copy discarding them and runs `after` (if any). */
  const discarding = useCallback(
    async (b: BranchId, act: () => Promise<void>, after: (() => Promise<void>) | null) => {
      try {
        await act();
      } catch (e) {
        const text = e instanceof Error ? e.message : String(e);
        if (!text.includes(HOLDS)) throw e;
        const yes = await confirm({ title: "Discard the copy's changes?", message: text, confirm: "Discard them", danger: true });
        if (!yes) return;
        await backend.removeBranchCopy(id, b, true);
        await after?.();
      }
    },
    [backend, id, confirm],
  );
  const onIsolate = useCallback((b: BranchId) => void backend.isolateBranch(id, b).then(reload, report), [backend, id, reload, report]);
  const onRemoveCopy = useCallback(
    (b: BranchId) => void discarding(b, () => backend.removeBranchCopy(id, b, false), null).then(reload, report),
    [backend, id, discarding, reload, report],
  );
  const onDelete = useCallback(
    (b: BranchId) => void discarding(b, () => backend.deleteBranch(id, b), () => backend.deleteBranch(id, b)).then(reload, report),
    [backend, id, discarding, reload, report],
  );
  /** After merging `source`: Braid removed its copy if nothing of it was
   *  left out; otherwise the user is asked. */
  const afterMerge = useCallback(
    (source: BranchId) => {
      const remove = () =>
        backend.removeBranchCopy(id, source, false).catch((e: unknown) => {
          // Removed by the merge already.
          if (!(e instanceof Error && e.message.includes("has no copy of its own"))) throw e;
        });
      void discarding(source, remove, null).then(reload, report);
    },
    [backend, id, discarding, reload, report],
  );
  return { onIsolate, onRemoveCopy, onDelete, afterMerge };
}
