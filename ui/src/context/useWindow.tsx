import { useCallback, useEffect, useMemo, useState } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, ContextSnapshot, Notice } from "../generated/protocol";
import { parseWindowCommand } from "../chat/command";
import type { SummaryActions } from "./SummaryCard";
import { onDemand } from "../onDemand";

const SummaryPreviewDialog = onDemand(() => import("./SummaryPreviewDialog").then((m) => m.SummaryPreviewDialog));
const ContextPanel = onDemand(() => import("./ContextPanel").then((m) => m.ContextPanel));

/** Notices after which what is sent changed: the conversation is read again. */
const CHANGED: Notice["code"][] = ["summary_preview", "summarized", "summary_changed", "summary_failed"];

/** The window under the user's hand in one conversation: the context
 *  view, `/compact` and `/context`, "summarise up to / from here", the
 *  summary waiting for approval, and a summary's edit and undo. */
export function useWindow(backend: Backend, id: ContextId, snapshot: ContextSnapshot | null, notice: Notice | null, busy: boolean, reload: () => void, report: (e: unknown) => void) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (notice && CHANGED.includes(notice.code)) reload();
  }, [notice, reload]);
  useEffect(() => setOpen(false), [id]);
  const compact = useCallback(
    (instructions: string | null, scope: Parameters<Backend["compactContext"]>[2]) => void backend.compactContext(id, instructions, scope, true).then(reload, report),
    [backend, id, reload, report],
  );
  /** A composer line that is about the window: done here, not sent. */
  const onCommand = useCallback(
    (text: string): boolean => {
      const c = parseWindowCommand(text);
      if (!c) return false;
      if (c.kind === "context") setOpen(true);
      else compact(c.instructions, { kind: "all" });
      return true;
    },
    [compact],
  );
  const onSummarize = useCallback(
    (message: number, from: boolean) => compact(null, from ? { kind: "from", message } : { kind: "up_to", message }),
    [compact],
  );
  const summaryActions: SummaryActions = useMemo(
    () => ({
      edit: (message, text) => void backend.editSummary(id, message, text).then(reload, report),
      undo: (message) => void backend.undoSummary(id, message).then(reload, report),
    }),
    [backend, id, reload, report],
  );
  const preview = snapshot?.summary_preview;
  const dialog = preview ? (
    <SummaryPreviewDialog
      key={preview.replaces.join(",") + preview.text.length}
      preview={preview}
      onApprove={(text) => void backend.applySummary(id, text).then(reload, report)}
      onDiscard={() => void backend.discardSummary(id).then(reload, report)}
    />
  ) : null;
  const panel = (draft: string) =>
    open && snapshot ? (
      <ContextPanel backend={backend} id={id} draft={draft} snapshot={snapshot} busy={busy} onClose={() => setOpen(false)} onChanged={reload} onError={report} />
    ) : null;
  return { onCommand, onSummarize, summaryActions, dialog, panel, openPanel: () => setOpen(true) };
}
