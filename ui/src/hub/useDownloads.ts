import { useCallback, useEffect, useRef, useState } from "react";
import type { Backend } from "../backend/types";
import type { Download, DownloadsView } from "../generated/protocol";

/** A download that is still on its way (its figures change). */
export const isActive = (d: Download) => d.state === "queued" || d.state === "running" || d.state === "verifying";

/** The downloads, read again every half second while one is on its way
 *  and every few seconds otherwise (one started elsewhere shows up);
 *  `onLanded` when a model reaches the shelf. */
export function useDownloads(backend: Backend, onLanded?: () => void) {
  const [view, setView] = useState<DownloadsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const done = useRef<Set<string> | null>(null);
  const landed = useRef(onLanded);
  landed.current = onLanded;
  const take = useCallback((v: DownloadsView) => {
    const now = new Set(v.downloads.filter((d) => d.state === "done").map((d) => d.id));
    // Only a change seen here counts: ones done before the page opened do not.
    if (done.current && [...now].some((id) => !done.current?.has(id))) landed.current?.();
    done.current = now;
    setView(v);
  }, []);
  const active = view?.downloads.some(isActive) ?? false;
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    if (unavailable) return;
    let stopped = false;
    // A Braid without built-in models answers with an error: not asked again.
    const read = () => backend.listDownloads().then((v) => !stopped && take(v), () => !stopped && setUnavailable(true));
    void read();
    const timer = window.setInterval(read, active ? 500 : 3000);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [backend, take, active, unavailable]);
  /** Runs a change and shows its result (or its error). */
  const act = useCallback(
    (change: Promise<DownloadsView>) => {
      setError(null);
      return change.then((v) => (take(v), true), (e: Error) => (setError(e.message), false));
    },
    [take],
  );
  return { view, error, act };
}

/** "1 min left", "40 s left". */
export function timeLeft(seconds: number | null): string {
  if (seconds === null) return "";
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min left`;
  if (seconds >= 90) return `${Math.round(seconds / 60)} min left`;
  return `${Math.max(1, seconds)} s left`;
}
