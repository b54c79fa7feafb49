// The chat's model of one conversation: its snapshot, loaded again when
// asked (one load at a time, the last asked wins), and its events applied
// in one batch per animation frame.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Backend } from "../backend/types";
import type { BraidEvent, ContextId } from "../generated/protocol";
import { applyEvent, applySnapshot, empty, type ChatModel } from "./model";
import { serialLoader, type SerialLoader } from "./serial";
import { startupStep } from "../firstScreen";
import { takeSnapshot } from "../startup";

/** `onActivity` is told after each snapshot (the list shows counts and
 *  order from it); `onError` when a load fails. */
export function useChatModel(backend: Backend, id: ContextId, onActivity: (() => void) | undefined, onError: (e: string) => void) {
  const [model, setModel] = useState<ChatModel>(empty);
  const failed = useRef(onError);
  failed.current = onError;
  const activity = useRef(onActivity);
  activity.current = onActivity;
  const loader = useRef<SerialLoader | null>(null);
  useEffect(() => {
    const l = serialLoader(
      () => backend.loadContext(id),
      (s) => {
        startupStep("snapshot");
        setModel((m) => applySnapshot(m, s));
        activity.current?.();
      },
      (e) => failed.current(String(e)),
    );
    loader.current = l;
    return () => l.close();
  }, [backend, id]);
  const reload = useCallback(() => loader.current?.request(), []);
  // A message put in place changed the conversation too: the list shows
  // its count and order (the list is asked, not the conversation).
  useEffect(() => {
    if (model.edits > 0) activity.current?.();
  }, [model.edits]);
  // Events are applied in one batch per animation frame: a fast stream
  // re-renders at most once a frame, however many deltas arrive. A hidden
  // page gets no frames, so a timer applies them too (browsers slow it to
  // about once a second there): the state stays current and the batch small.
  useEffect(() => {
    setModel(empty);
    // Asked as the page started (startup.ts): shown unless the
    // subscription's own snapshot came first.
    let live = true;
    takeSnapshot(id)?.then((s) => {
      if (!live) return;
      startupStep("snapshot");
      setModel((m) => (m.snapshot ? m : applySnapshot(m, s)));
    }, () => undefined);
    let pending: BraidEvent[] = [];
    let frame: number | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      if (frame !== null) cancelAnimationFrame(frame);
      if (timer !== null) clearTimeout(timer);
      frame = timer = null;
      const batch = pending;
      pending = [];
      if (batch.length) setModel((m) => batch.reduce(applyEvent, m));
    };
    const unsubscribe = backend.subscribe(
      id,
      (s) => {
        startupStep("snapshot");
        setModel((m) => applySnapshot(m, s));
      },
      (e) => {
        pending.push(e);
        // A new title shows in the header and the list at once.
        if (e.event === "context_update" && e.metadata.notice?.code === "titled") loader.current?.request();
        frame ??= requestAnimationFrame(flush);
        timer ??= setTimeout(flush, 250);
      },
      // Events were missed: a snapshot from the loader, in order with the rest.
      () => loader.current?.request(),
    );
    return () => {
      live = false;
      unsubscribe();
      if (frame !== null) cancelAnimationFrame(frame);
      if (timer !== null) clearTimeout(timer);
    };
  }, [backend, id]);

  // Every change to the stored messages asks for a snapshot taken after it.
  const asked = useRef(0);
  useEffect(() => {
    if (model.changes !== asked.current) {
      asked.current = model.changes;
      reload();
    }
  }, [model.changes, reload]);
  return { model, reload };
}
