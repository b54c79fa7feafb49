import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { isPinned, offsets, PIN_SLACK, visibleRange } from "./virtual";

export interface Row {
  key: string;
  render: () => ReactNode;
}

const ESTIMATE = 72;
const OVERSCAN = 600;

/** A windowed list: only rows near the viewport are in the DOM, each
 *  measured as it renders. It follows new content while the reader is at
 *  the bottom, and stops when they scroll up ("Jump to latest" returns). */
export function MessageList({ rows }: { rows: Row[] }) {
  const box = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const [view, setView] = useState({ top: 0, height: 800 });
  const pinned = useRef(true);
  /** Where following the bottom last put the list. */
  const autoTop = useRef<number | null>(null);
  const [showJump, setShowJump] = useState(false);

  const offs = useMemo(
    () => offsets(rows.map((r) => heights.current.get(r.key)), ESTIMATE),
    // `measured` changes whenever a height does.
    [rows, measured],
  );
  const [start, end] = visibleRange(offs, view.top, view.height, OVERSCAN);
  const total = offs[rows.length];

  const observer = useMemo(
    () =>
      typeof ResizeObserver === "undefined"
        ? null
        : new ResizeObserver((entries) => {
            let changed = false;
            for (const e of entries) {
              const key = (e.target as HTMLElement).dataset.key!;
              const h = (e.target as HTMLElement).offsetHeight;
              if (heights.current.get(key) !== h) {
                heights.current.set(key, h);
                changed = true;
              }
            }
            if (changed) setMeasured((n) => n + 1);
          }),
    [],
  );
  const measure = useCallback(
    (el: HTMLDivElement | null) => {
      if (!el || !observer) return;
      observer.observe(el);
      return () => observer.unobserve(el);
    },
    [observer],
  );

  // The list's own box shrinks or grows (the composer gains a row of
  // thumbnails, the window is resized): a reader at the bottom stays there.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const watch = new ResizeObserver(() => {
      if (pinned.current) {
        el.scrollTop = el.scrollHeight;
        autoTop.current = el.scrollTop;
      }
      setView({ top: el.scrollTop, height: el.clientHeight });
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, []);

  const onScroll = () => {
    const el = box.current!;
    pinned.current = isPinned(el.scrollTop, el.scrollHeight, el.clientHeight);
    if (pinned.current) autoTop.current = el.scrollTop;
    setShowJump(!pinned.current);
    setView({ top: el.scrollTop, height: el.clientHeight });
  };

  // After every render: while pinned, stay at the bottom. A scroll up that
  // has not reached onScroll yet (the render came first) still counts: the
  // position is compared with where the list last put itself.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    // (Content that shrank clamps the position too, but leaves it at the
    // bottom: that is not the reader scrolling away.)
    const atBottom = isPinned(el.scrollTop, el.scrollHeight, el.clientHeight);
    if (pinned.current && autoTop.current !== null && el.scrollTop < autoTop.current - PIN_SLACK && !atBottom) {
      pinned.current = false;
      setShowJump(true);
    }
    if (pinned.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1) {
      el.scrollTop = el.scrollHeight;
      autoTop.current = el.scrollTop;
      setView({ top: el.scrollTop, height: el.clientHeight });
    } else if (el.clientHeight !== view.height) {
      setView({ top: el.scrollTop, height: el.clientHeight });
    }
  });

  const jump = () => {
    pinned.current = true;
    setShowJump(false);
    const el = box.current!;
    el.scrollTop = el.scrollHeight;
    autoTop.current = el.scrollTop;
  };

  return (
    <div className="messages" ref={box} onScroll={onScroll} data-rows={rows.length} data-rendered={end - start}>
      <div style={{ height: offs[start] }} aria-hidden="true" />
      {rows.slice(start, end).map((r) => (
        <div key={r.key} data-key={r.key} ref={measure} className="row">
          {r.render()}
        </div>
      ))}
      <div style={{ height: total - offs[end] }} aria-hidden="true" />
      {showJump ? (
        <button type="button" className="jump" onClick={jump}>
          Jump to latest ↓
        </button>
      ) : null}
    </div>
  );
}
