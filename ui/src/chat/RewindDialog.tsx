// Rewinding from a question: what putting the files back as they were
// when it was sent would do (each file with its diff; files the user
// changed since are flagged and kept unless ticked), and the three ways
// to go: the files, the conversation (a branch from before the question,
// the question back in the composer), or both.
import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, RewindPreview } from "../generated/protocol";
import { RewindFileList } from "./RewindFileList";
import { useModal } from "../useModal";
import { counted } from "../counted";

export type RewindChoice = "files" | "conversation" | "both";

interface Props {
  backend: Backend;
  id: ContextId;
  message: number;
  onChoose: (choice: RewindChoice, overwrite: string[]) => void;
  onClose: () => void;
}

export function RewindDialog({ backend, id, message, onChoose, onClose }: Props) {
  const dialog = useModal();
  const [preview, setPreview] = useState<RewindPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [overwrite, setOverwrite] = useState<string[]>([]);
  useEffect(() => {
    backend.previewRewind(id, message).then(setPreview, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [backend, id, message]);
  const files = preview?.files ?? [];
  const toggle = (path: string, on: boolean) => setOverwrite((o) => (on ? [...o, path] : o.filter((p) => p !== path)));
  return (
    <dialog
      ref={dialog}
      className="rewind-dialog"
      aria-labelledby="rewind-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="rewind-title">Rewind to this question</h2>
      {error ? <p className="tool-error" role="alert">{error}</p> : null}
      {!preview && !error ? <p role="status">Looking at the files…</p> : null}
      {preview ? (
        files.length ? (
          <>
            <p>
              Files back as they were when the question was sent ({counted(preview.checkpoints, "change")} undone). Nothing is written until you choose.
            </p>
            <RewindFileList files={files} overwrite={overwrite} onToggle={toggle} />
          </>
        ) : (
          <p>No file changed since this question: only the conversation can be rewound.</p>
        )
      ) : null}
      <div className="dialog-buttons">
        <button type="button" onClick={onClose}>Cancel</button>
        <button type="button" onClick={() => onChoose("conversation", [])} title="A new branch from before this question; this one stays. The question comes back into the composer.">
          Conversation only
        </button>
        <button type="button" disabled={!files.length} onClick={() => onChoose("files", overwrite)}>
          Files only
        </button>
        <button type="button" className="primary" autoFocus disabled={!preview} onClick={() => onChoose(files.length ? "both" : "conversation", overwrite)}>
          Files and conversation
        </button>
      </div>
    </dialog>
  );
}
