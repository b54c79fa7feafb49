import { useState } from "react";

interface Props {
  folder: string;
  /** The system's picker (the desktop window); typed otherwise. */
  pick?: (start: string) => Promise<string | null>;
  /** Moves the conversation; fails with the reason (busy, no such folder). */
  onMove: (folder: string) => Promise<unknown>;
  /** Reads are asked once here (the home folder). */
  broad: boolean;
  busy: boolean;
}

/** The folder the conversation's tools work in, and a way to move it: the
 *  native picker in the desktop window, a typed path in a browser. */
export function FolderControl({ folder, pick, onMove, broad, busy }: Props) {
  const [typing, setTyping] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const move = (to: string) =>
    onMove(to).then(
      () => (setTyping(null), setError(null)),
      (e: Error) => setError(e.message),
    );
  const change = () => {
    setError(null);
    if (!pick) return setTyping(folder);
    pick(folder).then((to) => (to ? move(to) : undefined), (e: Error) => setError(String(e.message ?? e)));
  };
  return (
    <div className="folder-control" role="group" aria-label="Folder">
      <span>Folder</span>
      {typing === null ? (
        <div className="folder-row">
          <code title={folder}>{folder}</code>
          <button type="button" onClick={change} disabled={busy} title={busy ? "Wait until the conversation is idle" : "Work in another folder from the next tool call"}>
            Change…
          </button>
        </div>
      ) : (
        <form className="folder-row" onSubmit={(e) => (e.preventDefault(), void move(typing.trim()))}>
          <input
            aria-label="Folder path"
            data-own-escape
            autoFocus
            value={typing}
            onChange={(e) => setTyping(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== "Escape") return;
              // Esc leaves the path, not the whole panel.
              e.stopPropagation();
              setTyping(null);
              setError(null);
            }}
          />
          <button type="submit" className="primary">Move</button>
        </form>
      )}
      {broad ? <small>Your home folder or one above it: Braid asks before the first read.</small> : null}
      {error ? <small className="field-error" role="alert">{error}</small> : null}
    </div>
  );
}
