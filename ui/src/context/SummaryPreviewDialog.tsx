import { useState } from "react";
import { counted } from "../counted";
import type { SummaryPreview } from "../generated/protocol";
import { useModal } from "../useModal";

interface Props {
  preview: SummaryPreview;
  /** The summary replaces its messages, with this text. */
  onApprove: (text: string | null) => void;
  /** Nothing is replaced (Esc too). */
  onDiscard: () => void;
}

/** A summary asked for (`/compact`, "summarise up to here"), before it
 *  replaces anything: read it, edit it, approve or throw it away. The
 *  originals stay in the history either way. */
export function SummaryPreviewDialog({ preview, onApprove, onDiscard }: Props) {
  const dialog = useModal();
  const [text, setText] = useState(preview.text);
  const approve = () => {
    if (!text.trim()) return;
    onApprove(text === preview.text ? null : text);
  };
  return (
    <dialog ref={dialog} className="summary-preview" aria-labelledby="summary-preview-title" onCancel={(e) => { e.preventDefault(); onDiscard(); }}>
      <h2 id="summary-preview-title">Summary of {counted(preview.replaces.length, "message")}</h2>
      <p className="hint">
        The model will read this instead of those messages; they stay in the history, and Undo on the summary sends them again.
        {preview.instructions ? <> You asked it to keep: <q>{preview.instructions}</q>.</> : null}
      </p>
      <textarea aria-label="Summary (edit before approving)" value={text} rows={14} onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            approve();
          }
        }} />
      <div className="dialog-buttons">
        <button type="button" onClick={onDiscard}>Discard</button>
        <button type="button" className="primary" autoFocus disabled={!text.trim()} onClick={approve} title="Ctrl+Enter">
          {text === preview.text ? "Approve" : "Approve edited"}
        </button>
      </div>
    </dialog>
  );
}
