import { describe, expect, it } from "vitest";
import type { ContextSummary } from "../generated/protocol";
import { summaryOf } from "../testing/fixtures";
import { groupByDate } from "./groups";

const at = (title: string, when: Date, pinned = false): ContextSummary =>
  summaryOf({ id: title, title, working_dir: "/w", created_at: when.getTime(), updated_at: when.getTime(), message_count: 2, pinned });

describe("the conversation list's groups", () => {
  it("puts pins first, then today, yesterday, the last week and month, then months", () => {
    const now = new Date(2026, 10, 26, 15, 0);
    const items = [
      at("this morning", new Date(2026, 10, 26, 8, 0)),
      at("pinned old", new Date(2026, 0, 3), true),
      at("last night", new Date(2026, 10, 25, 23, 30)),
      at("monday", new Date(2026, 10, 23, 12, 0)),
      at("early month", new Date(2026, 10, 2, 12, 0)),
      at("summer", new Date(2026, 6, 14, 12, 0)),
    ];
    const groups = groupByDate(items, now).map((g) => [g.label, g.items.map((c) => c.title)]);
    const july = new Date(2026, 6, 14).toLocaleDateString(undefined, { month: "long", year: "numeric" });
    expect(groups).toEqual([
      ["Pinned", ["pinned old"]],
      ["Today", ["this morning"]],
      ["Yesterday", ["last night"]],
      ["Previous 7 days", ["monday"]],
      ["Previous 30 days", ["early month"]],
      [july, ["summer"]],
    ]);
  });
  it("leaves out empty groups", () => {
    expect(groupByDate([], new Date()).length).toBe(0);
  });
});
