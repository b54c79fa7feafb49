// Windowing maths for the message list: only rows near the viewport are
// rendered; rows never measured count with an estimate. Pure and tested.

/** Prefix sums: `offsets[i]` is the top of row i, `offsets[n]` the total. */
export function offsets(heights: ArrayLike<number | undefined>, estimate: number): Float64Array {
  const out = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) out[i + 1] = out[i] + (heights[i] ?? estimate);
  return out;
}

/** The first row whose bottom is below `y`. */
function rowAt(offs: Float64Array, y: number): number {
  let lo = 0;
  let hi = Math.max(0, offs.length - 2);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offs[mid + 1] <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rows `[start, end)` to render for a viewport, with `overscan` pixels
 *  drawn above and below so fast scrolling shows no gaps. */
export function visibleRange(offs: Float64Array, scrollTop: number, viewport: number, overscan: number): [number, number] {
  const n = offs.length - 1;
  if (n <= 0) return [0, 0];
  const start = rowAt(offs, Math.max(0, scrollTop - overscan));
  const end = Math.min(n, rowAt(offs, scrollTop + viewport + overscan) + 1);
  return [start, Math.max(start, end)];
}

/** A reader who scrolls down to within this many pixels of the bottom
 *  follows new content again. */
export const PIN_SLACK = 48;

export interface ScrollPlace {
  top: number;
  /** Pixels of content below the viewport. */
  below: number;
}

/** Whether the list still follows new content after its position changed
 *  from `lastTop` to `now`. Only a reader moves the list up: content that
 *  shrinks clamps it to the very bottom, content that grows never moves it,
 *  and the list itself only ever scrolls to the bottom. A position below
 *  the last one but short of the bottom is the list's own scroll overtaken
 *  by content that grew (measured rows, streamed text): nothing changes. */
export function stillPinned(pinned: boolean, lastTop: number, now: ScrollPlace): boolean {
  if (now.below <= 1) return true;
  if (now.top < lastTop - 1) return false;
  return pinned || (now.top > lastTop && now.below <= PIN_SLACK);
}
