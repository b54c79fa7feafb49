import { describe, expect, it } from "vitest";
import { laneFit } from "./BranchGraph";

describe("the graph's lanes in a narrow panel", () => {
  it("keep their full width while they fit", () => {
    expect(laneFit(3, 520)).toEqual({ lane: 14, shown: 16, px: 50 });
  });
  it("narrow for 50 branches, leaving over half the panel to the labels", () => {
    const f = laneFit(50, 520);
    expect(f.lane).toBe(4);
    expect(f.px).toBeLessThanOrEqual(520 * 0.45);
    expect(f.shown).toBeGreaterThanOrEqual(50);
  });
  it("fold lanes past what fits at 3 px onto the last, for 200 branches", () => {
    const f = laneFit(200, 520);
    expect(f.lane).toBe(3);
    expect(f.shown).toBeLessThan(200);
    expect(f.px).toBeLessThanOrEqual(520 * 0.45);
  });
});
