import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, FileExcerpt } from "../generated/protocol";
import { OpenFile } from "./codeLinks";
import { useModal } from "../useModal";

/** Gives the transcript a way to open a workspace file at a line, shown
 *  in a dialog with the line marked and scrolled into view. */
export function FileOpener({ backend, id, children }: { backend: Backend; id: ContextId; children: ReactNode }) {
  const [opened, setOpened] = useState<{ path: string; line: number } | null>(null);
  const open = useCallback((path: string, line: number) => setOpened({ path, line }), []);
  return (
    <OpenFile.Provider value={open}>
      {children}
      {opened ? <FileDialog backend={backend} id={id} {...opened} onClose={() => setOpened(null)} /> : null}
    </OpenFile.Provider>
  );
}

function FileDialog({ backend, id, path, line, onClose }: { backend: Backend; id: ContextId; path: string; line: number; onClose: () => void }) {
  const dialog = useModal();
  const mark = useRef<HTMLDivElement>(null);
  const [excerpt, setExcerpt] = useState<FileExcerpt | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    backend.readWorkspaceFile(id, path, line).then(
      (e) => live && setExcerpt(e),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [backend, id, path, line]);
  // A block body: Chromium's scrollIntoView now returns a promise, which
  // React would take for the effect's cleanup and call on unmount.
  useEffect(() => {
    mark.current?.scrollIntoView({ block: "center" });
  }, [excerpt]);
  return (
    <dialog ref={dialog} className="file-dialog" aria-labelledby="file-title" onClose={onClose}>
      <h2 id="file-title">
        {path}:{line}
      </h2>
      {error ? <p className="error" role="alert">{error}</p> : null}
      {excerpt ? (
        <>
          <p className="hint">
            Lines {excerpt.start_line}–{excerpt.start_line + excerpt.lines.length - 1} of {excerpt.total_lines}
          </p>
          <div className="file-lines" role="region" aria-label={`${path} around line ${line}`} tabIndex={0}>
            {excerpt.lines.map((text, i) => {
              const n = excerpt.start_line + i;
              return (
                <div key={n} ref={n === excerpt.line ? mark : undefined} className={n === excerpt.line ? "file-line target" : "file-line"} aria-current={n === excerpt.line ? "true" : undefined}>
                  <span className="file-line-no">{n}</span>
                  <code>{text || " "}</code>
                </div>
              );
            })}
          </div>
        </>
      ) : null}
      <div className="dialog-actions">
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
