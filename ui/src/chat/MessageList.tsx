import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { offsets, stillPinned, visibleRange } from "./virtual";

export interface Row {
  key: string;
  render: () => ReactNode;
}

const ESTIMATE = 72;
const OVERSCAN = 600;

/** A request to bring the row `key` into view (`at` tells requests for the
 *  same row apart). */
export interface Reveal {
  key: string;
  at: number;
}

/** A windowed list: only rows near the viewport are in the DOM, each
 *  measured as it renders. It follows new content while the reader is at
 *  the bottom, and stops when they scroll up ("Jump to latest" returns);
 *  `reveal` brings a row into view, marked for a moment. */
export function MessageList({ rows, reveal = null }: { rows: Row[]; reveal?: Reveal | null }) {
  const box = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const [view, setView] = useState({ top: 0, height: 800 });
  const pinned = useRef(true);
  /** The position at the last scroll event, or where the list last put
   *  itself: a move up from it is a reader scrolling away. */
  const lastTop = useRef(0);
  const [showJump, setShowJump] = useState(false);
  /** The row to bring into view once its neighbours are measured. */
  const target = useRef<string | null>(null);
  const served = useRef(0);
  const [flash, setFlash] = useState<string | null>(null);

  const offs = useMemo(
    () => offsets(rows.map((r) => heights.current.get(r.key)), ESTIMATE),
    // `measured` changes whenever a height does (the heights live in a ref).
    // eslint-disable-next-line react-hooks/exhaustive-deps
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

  const follow = (el: HTMLDivElement) => {
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
  };
  /** Notes where the list is now and whether it still follows. */
  const track = (el: HTMLDivElement) => {
    const now = { top: el.scrollTop, below: el.scrollHeight - el.scrollTop - el.clientHeight };
    const next = stillPinned(pinned.current, lastTop.current, now);
    lastTop.current = now.top;
    if (next !== pinned.current) {
      pinned.current = next;
      setShowJump(!next);
    }
  };
  const setViewOf = (el: HTMLDivElement) =>
    setView((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));

  // The list's own box shrinks or grows (the composer gains a row of
  // thumbnails, the window is resized): a reader at the bottom stays there.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const watch = new ResizeObserver(() => {
      // A scroll up that came just before (its event not yet handled) wins.
      track(el);
      if (pinned.current) follow(el);
      setViewOf(el);
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, []);

  const onScroll = () => {
    const el = box.current!;
    track(el);
    setViewOf(el);
  };

  // After every render: while following, stay at the bottom. A scroll up
  // that has not reached onScroll yet (the render came first) still counts.
  // Runs after every render on purpose: it measures what was just drawn.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    // Rows just rendered are measured now, not when the ResizeObserver
    // reports: scrolling on estimates would move the window onto other
    // unmeasured rows, change the height again and never settle.
    let changed = false;
    for (const row of el.querySelectorAll<HTMLElement>(":scope > .row")) {
      const h = row.offsetHeight;
      if (heights.current.get(row.dataset.key!) !== h) {
        heights.current.set(row.dataset.key!, h);
        changed = true;
      }
    }
    if (changed) {
      setMeasured((n) => n + 1);
      return;
    }
    if (reveal && served.current !== reveal.at && rows.some((r) => r.key === reveal.key)) {
      // Taken up once the row is there (a branch switch or a full load
      // may come first); the reader is no longer at the bottom.
      served.current = reveal.at;
      target.current = reveal.key;
      pinned.current = false;
      setShowJump(true);
      setFlash(reveal.key);
    }
    if (target.current !== null) {
      // Scrolled again after each round of measuring (this point is
      // reached only when no height changed), until it stays put.
      const i = rows.findIndex((r) => r.key === target.current);
      const want = i < 0 ? el.scrollTop : Math.max(0, Math.min(offs[i] - 16, el.scrollHeight - el.clientHeight));
      if (Math.abs(el.scrollTop - want) > 1) el.scrollTop = want;
      else target.current = null;
      lastTop.current = el.scrollTop;
      setViewOf(el);
      return;
    }
    track(el);
    if (pinned.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1) follow(el);
    setViewOf(el);
  });
  useEffect(() => {
    if (flash === null) return;
    const t = setTimeout(() => setFlash(null), 2000);
    return () => clearTimeout(t);
  }, [flash]);

  const jump = () => {
    pinned.current = true;
    setShowJump(false);
    follow(box.current!);
  };

  return (
    <div className="messages" ref={box} onScroll={onScroll} data-rows={rows.length} data-rendered={end - start}>
      <div style={{ height: offs[start] }} aria-hidden="true" />
      {rows.slice(start, end).map((r) => (
        <div key={r.key} data-key={r.key} ref={measure} className={r.key === flash ? "row flash" : "row"}>
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
