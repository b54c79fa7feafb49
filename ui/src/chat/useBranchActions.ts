// What the chat does to the branches: switch, rename, delete, give or
// take a copy of its own (`useBranchCopy`), fork, edit a
// question or answer again on a new branch, undo a merge. Each reloads the
// conversation when done and reports a failure.
import { useCallback } from "react";
import type { Backend } from "../backend/types";
import type { BranchId, ContextId } from "../generated/protocol";
import { useBranchCopy } from "../branches/useBranchCopy";

export function useBranchActions(backend: Backend, id: ContextId, branchCount: number, reload: () => void, report: (e: unknown) => void) {
  const onSwitchBranch = useCallback((b: BranchId) => void backend.switchBranch(id, b).then(reload, report), [backend, id, reload, report]);
  const onRenameBranch = useCallback(
    (b: BranchId, name: string) => void backend.renameBranch(id, b, name).then(reload, report),
    [backend, id, reload, report],
  );
  const { onIsolate: onIsolateBranch, onRemoveCopy: onRemoveBranchCopy, onDelete: onDeleteBranch } = useBranchCopy(backend, id, reload, report);
  // A fork shares everything up to the message and becomes the branch in
  // use, so the next message goes on from there.
  const onFork = useCallback(
    (from: number) =>
      void backend
        .createBranch(id, from, `Branch ${branchCount + 1}`)
        .then((b) => backend.switchBranch(id, b))
        .then(reload, report),
    [backend, id, branchCount, reload, report],
  );
  // Editing a question or answering again never overwrites: the new turn
  // goes to a branch holding everything before the message, unnamed (a
  // version, switched between on the message) until the user names it.
  const onEdit = useCallback(
    (message: number, text: string) =>
      void backend
        .forkBefore(id, message, "")
        .then((b) => backend.switchBranch(id, b))
        .then(() => backend.sendMessage(id, { body: { type: "text", role: "user", parts: [{ kind: "text", text }] }, images: [] }, false))
        .then(reload, report),
    [backend, id, reload, report],
  );
  const onAgain = useCallback(
    (message: number) =>
      void backend
        .forkBefore(id, message, "")
        .then((b) => backend.switchBranch(id, b))
        .then(() => backend.retry(id))
        .then(reload, report),
    [backend, id, reload, report],
  );
  const onUndoMerge = useCallback((card: number) => void backend.undoMerge(id, card).then(reload, report), [backend, id, reload, report]);
  return { onSwitchBranch, onRenameBranch, onDeleteBranch, onIsolateBranch, onRemoveBranchCopy, onFork, onEdit, onAgain, onUndoMerge };
}
