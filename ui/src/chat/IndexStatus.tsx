import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { CodebaseIndex, ContextId } from "../generated/protocol";

const POLL_MS = 400;
const fmt = (n: number) => n.toLocaleString("en-US");

/** The codebase index of the conversation's folder: its build's progress
 *  (with Stop), or what it holds (with Build again). Nothing for a
 *  folder too broad to index. */
export function IndexStatus({ backend, id, folder }: { backend: Backend; id: ContextId; folder: string }) {
  const [index, setIndex] = useState<CodebaseIndex | null>(null);
  const [error, setError] = useState<string | null>(null);
  const building = index?.state === "building";
  useEffect(() => {
    let live = true;
    const ask = () =>
      backend.getCodebaseIndex(id).then(
        (i) => live && setIndex(i),
        (e: Error) => live && setError(e.message),
      );
    void ask();
    // Polled only while a build runs: the figures change then.
    const timer = building ? setInterval(ask, POLL_MS) : undefined;
    return () => {
      live = false;
      if (timer) clearInterval(timer);
    };
  }, [backend, id, folder, building]);
  if (error) return <span className="index-status error" role="status">Code index: {error}</span>;
  if (!index) return null;
  const act = (call: Promise<CodebaseIndex | null>) => call.then(setIndex, (e: Error) => setError(e.message));
  return (
    <span className={`index-status index-${index.state}`} role="status" data-testid="index-status">
      {index.state === "building" ? (
        <>
          Indexing code{index.total ? ` ${fmt(index.done)} of ${fmt(index.total)} files` : "…"}
          <button type="button" className="link" aria-label="Stop indexing" onClick={() => void act(backend.cancelCodebaseIndex(id))}>
            Stop
          </button>
        </>
      ) : index.state === "ready" ? (
        <span title={`Built in ${index.build_ms} ms; ${fmt(index.parsed)} files read, the rest unchanged since stored. Kept current as files change.`}>
          Code index: {fmt(index.files)} files, {fmt(index.symbols)} symbols
        </span>
      ) : (
        <>
          {index.state === "cancelled" ? "Code index stopped" : `Code index failed: ${index.error ?? "unknown reason"}`}
          <button type="button" className="link" onClick={() => void act(backend.rebuildCodebaseIndex(id))}>
            Build again
          </button>
        </>
      )}
    </span>
  );
}
