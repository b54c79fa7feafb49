// A turn's review: each file it changed with its hunks as they stand.
// Undo a hunk, a file or all (a restore, itself undoable from its card);
// keep one to take it off the list (remembered in this browser, per
// turn). A file changed since the turn is flagged: its undo is merged
// with what it holds, and refused with why when the lines clash.
import { useCallback, useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { ChangedFile, ContextId, TurnChanges, UndoSelection } from "../generated/protocol";
import { ChangeBadge } from "./ChangeBadge";
import { DiffLines } from "./DiffLines";
import { useModal } from "../useModal";

interface Props {
  backend: Backend;
  id: ContextId;
  /** Any message of the turn. */
  message: number;
  onClose: () => void;
  /** Files were written: the conversation has a new note. */
  onUndone: () => void;
}

const CHANGE: Record<string, string> = { created: "new", modified: "changed", deleted: "deleted" };

/** What the user kept, by turn: `path\nhunk diff` (or `path\n*` for a binary file). */
function keptKey(id: ContextId, question: number) {
  return `braid.changes.kept.${id}.${question}`;
}

function loadKept(id: ContextId, question: number): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(keptKey(id, question)) ?? "[]");
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export function ChangesDialog({ backend, id, message, onClose, onUndone }: Props) {
  const dialog = useModal();
  const [changes, setChanges] = useState<TurnChanges | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const [kept, setKept] = useState<string[]>([]);
  const load = useCallback(
    () =>
      backend.turnChanges(id, message).then(
        (c) => {
          setChanges(c);
          setKept(loadKept(id, c.question));
        },
        (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
      ),
    [backend, id, message],
  );
  useEffect(() => void load(), [load]);
  const keep = (keys: string[]) => {
    if (!changes) return;
    const next = [...new Set([...kept, ...keys])];
    setKept(next);
    localStorage.setItem(keptKey(id, changes.question), JSON.stringify(next));
  };
  const undo = (files: UndoSelection[]) => {
    setWorking(true);
    setError(null);
    backend
      .undoChanges(id, message, files)
      .then(
        () => {
          onUndone();
          return load();
        },
        (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
      )
      .finally(() => setWorking(false));
  };
  const hunkKey = (f: ChangedFile, diff: string) => `${f.path}\n${diff}`;
  const open = (changes?.files ?? [])
    .map((f) => ({ ...f, hunks: f.hunks.filter((h) => !kept.includes(hunkKey(f, h.diff))) }))
    .filter((f) => (f.binary ? !kept.includes(hunkKey(f, "*")) : f.hunks.length > 0));
  const fileKeys = (f: ChangedFile) => (f.binary ? [hunkKey(f, "*")] : f.hunks.map((h) => hunkKey(f, h.diff)));
  const wholeFile = (f: ChangedFile): UndoSelection => ({ path: f.path, hunks: f.binary ? null : f.hunks.map((h) => h.index) });
  const total = open.reduce((n, f) => ({ files: n.files + 1, added: n.added + f.added, removed: n.removed + f.removed }), { files: 0, added: 0, removed: 0 });
  return (
    <dialog
      ref={dialog}
      className="rewind-dialog changes-dialog"
      aria-labelledby="changes-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="changes-title">Changes of this turn</h2>
      {error ? <p className="tool-error" role="alert">{error}</p> : null}
      {!changes && !error ? <p role="status">Looking at the files…</p> : null}
      {changes && !open.length ? <p role="status">Nothing left to review: every change of this turn is kept or undone.</p> : null}
      {open.length ? (
        <p>
          <ChangeBadge count={total} /> — undo writes the file back (the restore can itself be undone); keep takes it off this list.
        </p>
      ) : null}
      <ul className="rewind-files changes-files" aria-label="Files this turn changed">
        {open.map((f) => (
          <li key={f.path} className={f.changed_since ? "yours" : undefined} data-path={f.path}>
            <div className="changes-file">
              <code>{f.path}</code> <span className="who">{CHANGE[f.change]}</span>
              {f.changed_since ? <strong> · changed since this turn</strong> : null}
              <span className="spacer" />
              <button type="button" disabled={working} onClick={() => keep(fileKeys(f))} aria-label={`Keep ${f.path}`}>
                Keep
              </button>
              <button type="button" disabled={working} onClick={() => undo([wholeFile(f)])} aria-label={`Undo ${f.path}`}>
                Undo file
              </button>
            </div>
            {f.binary ? <p>Binary or too large to show: undone as a whole.</p> : null}
            {f.hunks.map((h, n) => (
              <div key={h.index} className="changes-hunk diff" data-hunk={h.index}>
                <div className="changes-hunk-actions">
                  <span className="who">
                    hunk {n + 1} of {f.hunks.length} · +{h.added} −{h.removed}
                  </span>
                  <button type="button" disabled={working} onClick={() => keep([hunkKey(f, h.diff)])} aria-label={`Keep hunk ${n + 1} of ${f.path}`}>
                    Keep
                  </button>
                  <button type="button" disabled={working} onClick={() => undo([{ path: f.path, hunks: [h.index] }])} aria-label={`Undo hunk ${n + 1} of ${f.path}`}>
                    Undo
                  </button>
                </div>
                <DiffLines lines={h.diff.split("\n").filter((l) => l !== "")} />
              </div>
            ))}
          </li>
        ))}
      </ul>
      <div className="dialog-buttons">
        <button type="button" autoFocus onClick={onClose}>
          Close
        </button>
        <button type="button" disabled={working || !open.length} onClick={() => keep(open.flatMap(fileKeys))}>
          Keep all
        </button>
        <button type="button" className="primary" disabled={working || !open.length} onClick={() => undo(open.map(wholeFile))}>
          Undo all
        </button>
      </div>
    </dialog>
  );
}
