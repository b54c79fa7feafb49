import { describe, expect, it } from "vitest";
import { isPinned, offsets, visibleRange } from "./virtual";

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

  it("follows new content only near the bottom", () => {
    expect(isPinned(952, 1_500, 500)).toBe(true);
    expect(isPinned(700, 1_500, 500)).toBe(false);
  });
});
