import { describe, expect, it } from "vitest";
import { offsets, stillPinned, visibleRange } from "./virtual";

describe("virtual list maths", () => {
  it("sums measured heights and estimates the rest", () => {
    expect(Array.from(offsets([10, undefined, 30], 20))).toEqual([0, 10, 30, 60]);
  });

  it("renders only the rows in view (plus overscan) of 10,000", () => {
    const offs = offsets(new Array(10_000).fill(50), 50);
    expect(visibleRange(offs, 0, 500, 0)).toEqual([0, 11]);
    const [s, e] = visibleRange(offs, 250_000, 600, 200);
    expect(s).toBe(4_996);
    expect(e).toBe(5_017);
    expect(visibleRange(offs, 499_500, 500, 0)[1]).toBe(10_000);
  });

  it("handles an empty list and a viewport past the end", () => {
    expect(visibleRange(offsets([], 40), 0, 500, 100)).toEqual([0, 0]);
    expect(visibleRange(offsets([40, 40], 40), 10_000, 500, 0)).toEqual([1, 2]);
  });

  it("stops following only when the reader moves up", () => {
    // Content grew after the list scrolled itself to 974: still following.
    expect(stillPinned(true, 974, { top: 1691, below: 101 })).toBe(true);
    expect(stillPinned(true, 974, { top: 974, below: 600 })).toBe(true);
    // Any move up, even a trackpad's few pixels near the bottom, stops it.
    expect(stillPinned(true, 974, { top: 964, below: 10 })).toBe(false);
    // Content that shrank clamps to the bottom: still following.
    expect(stillPinned(true, 974, { top: 500, below: 0 })).toBe(true);
  });

  it("follows again when the reader comes back near the bottom", () => {
    expect(stillPinned(false, 700, { top: 952, below: 40 })).toBe(true);
    expect(stillPinned(false, 700, { top: 900, below: 100 })).toBe(false);
    expect(stillPinned(false, 960, { top: 955, below: 30 })).toBe(false);
  });
});
