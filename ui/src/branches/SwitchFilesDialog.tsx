// Switching to a branch with its files: what putting the files back as
// they were at the branch's last message would write (each file with its
// diff; files the user changed since are flagged and kept unless ticked),
// and the two ways to go: bring the files along, or switch and keep the
// working files as they are. The files' switch is a restore: undone from
// its card like a rewind.
import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { BranchSummary, ContextId, RewindPreview } from "../generated/protocol";
import { RewindFileList } from "../chat/RewindFileList";
import { useModal } from "../useModal";
import { counted } from "../counted";
import { branchLabel } from "./label";

interface Props {
  backend: Backend;
  id: ContextId;
  branch: BranchSummary;
  onDone: () => void;
  onClose: () => void;
}

export function SwitchFilesDialog({ backend, id, branch, onDone, onClose }: Props) {
  const dialog = useModal();
  const [preview, setPreview] = useState<RewindPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [overwrite, setOverwrite] = useState<string[]>([]);
  const [working, setWorking] = useState(false);
  useEffect(() => {
    backend.previewSwitchFiles(id, branch.id).then(setPreview, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [backend, id, branch.id]);
  const files = preview?.files ?? [];
  const go = (withFiles: boolean) => {
    setWorking(true);
    const done = withFiles ? backend.switchBranchWithFiles(id, branch.id, overwrite).then(() => undefined) : backend.switchBranch(id, branch.id);
    done.then(onDone, (e: unknown) => {
      setError(e instanceof Error ? e.message : String(e));
      setWorking(false);
    });
  };
  return (
    <dialog
      ref={dialog}
      className="rewind-dialog"
      aria-labelledby="switch-files-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="switch-files-title">Switch to {branchLabel(branch)} with its files</h2>
      {error ? <p className="tool-error" role="alert">{error}</p> : null}
      {!preview && !error ? <p role="status">Looking at the files…</p> : null}
      {preview ? (
        files.length ? (
          <>
            <p>The files back as they were at {branchLabel(branch)}'s last message ({counted(preview.checkpoints, "change")} since undone). Nothing is written until you choose; the switch of files can be undone from its card.</p>
            <RewindFileList files={files} overwrite={overwrite} onToggle={(p, on) => setOverwrite((o) => (on ? [...o, p] : o.filter((x) => x !== p)))} label="Files the switch would write" />
          </>
        ) : (
          <p>The files are as they were at {branchLabel(branch)}'s last message: switching writes nothing.</p>
        )
      ) : null}
      <div className="dialog-buttons">
        <button type="button" onClick={onClose}>Cancel</button>
        <button type="button" disabled={working} onClick={() => go(false)} title="Switch the conversation; the files stay as they are">
          Keep the working files
        </button>
        <button type="button" className="primary" autoFocus disabled={!preview || working} onClick={() => go(files.length > 0)}>
          Switch with its files
        </button>
      </div>
    </dialog>
  );
}
