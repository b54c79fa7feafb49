import { describe, expect, it } from "vitest";
import { insertNext, matching, nextAt } from "./next";

describe("the [NEXT: completion", () => {
  it("finds the marker being typed at the caret, in any case", () => {
    expect(nextAt("hi [NEXT:sa", 11)).toEqual({ start: 3, query: "sa" });
    expect(nextAt("[next:", 6)).toEqual({ start: 0, query: "" });
    expect(nextAt("[NEXT:max] done", 15)).toBeNull();
    expect(nextAt("plain", 5)).toBeNull();
  });
  it("offers the members starting with what was typed", () => {
    expect(matching(["max", "Sarah", "sam"], { start: 0, query: "SA" })).toEqual(["Sarah", "sam"]);
  });
  it("completes the marker and puts the caret after it", () => {
    const t = "[NEXT:ma please";
    expect(insertNext(t, 9, { start: 0, query: "ma" }, "max")).toEqual({ text: "[NEXT:max] please", caret: 11 });
    expect(insertNext("[NEXT:m] hi", 7, { start: 0, query: "m" }, "max").text).toBe("[NEXT:max] hi");
  });
});
