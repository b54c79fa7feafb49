import { describe, expect, it } from "vitest";
import type { ChildSummary, SubAgentsView } from "../generated/protocol";
import { childRows, copyText, reportText } from "./children";

const live: SubAgentsView = {
  call_id: "spawn",
  agents: [
    { name: "fixer", context_id: "c1", isolated: false, report: { outcome: { kind: "submitted", result: "done" }, duration_ms: 1500, tokens: 1234 } },
    { name: "quitter", context_id: "c2", isolated: false, report: { outcome: { kind: "failed", reason: "it gave up: no file" }, duration_ms: 200, tokens: 0 } },
    { name: "runner", context_id: "c3", isolated: true },
    { name: "waiter", isolated: false },
  ],
};

describe("sub-agent rows", () => {
  it("say how each live child is doing, or how it ended", () => {
    const rows = childRows("spawn", live, { c3: { state: "executing_tool", tool_name: "run_command", index: 1, total: 1, attempt: 1 } }, [], 0);
    expect(rows.map((r) => [r.name, r.id, r.state, r.ended])).toEqual([
      ["fixer", "c1", "submitted (1.5 s, 1,234 tokens)", "submitted"],
      ["quitter", "c2", "failed: it gave up: no file (0.2 s, 0 tokens)", "failed"],
      ["runner", "c3", "Executing tool 1/1: run_command", null],
      ["waiter", null, "waiting for a free slot", null],
    ]);
    expect(rows.map((r) => r.copy?.label ?? null)).toEqual([null, null, "own copy", null]);
  });

  it("say what came back from a child's own copy, and what stayed in it", () => {
    const back = copyText({ folder: "/copies/c1", kind: "git_worktree", merged: ["a.txt", "b.txt"], conflicts: ["a.txt"], kept: [] });
    expect(back.label).toBe("own git worktree · 2 files merged back · conflict markers in a.txt");
    expect(back.detail).toBe("/copies/c1\nmerged: a.txt, b.txt");
    const kept = copyText({ folder: "/copies/c2", kind: "copy", merged: [], conflicts: [], kept: ["logo.png"], problem: "it did not finish" });
    expect(kept.label).toBe("own copy · nothing merged back · kept in the copy: logo.png");
    expect(kept.detail).toBe("/copies/c2\nit did not finish");
  });

  it("list a finished call's stored children in task order, and only that call's", () => {
    const child = (id: string, call: string, index: number, name: string): ChildSummary => ({
      context_id: id,
      child: { parent: "p", call_id: call, index, name, turn_limit: 20 },
      status: { state: "idle" },
    });
    const stored = [
      { ...child("b", "spawn", 1, "second"), outcome: { kind: "failed" as const, reason: "it was cancelled" } },
      child("x", "other", 0, "elsewhere"),
      { ...child("a", "spawn", 0, "first"), outcome: { kind: "submitted" as const, result: "ok" } },
    ];
    expect(childRows("spawn", null, {}, stored, 0).map((r) => [r.name, r.id, r.state])).toEqual([
      ["first", "a", "submitted"],
      ["second", "b", "failed: it was cancelled"],
    ]);
    const returned = { folder: "/copies/a", kind: "copy" as const, merged: ["x.txt"], conflicts: [], kept: [] };
    const copied = [{ ...stored[2], child: { ...stored[2].child, workspace: "/copies/a" }, returned }];
    expect(childRows("spawn", null, {}, copied, 0)[0].copy?.label).toBe("own copy · 1 file merged back");
    expect(childRows("spawn", { ...live, call_id: "other" }, {}, stored, 0).map((r) => r.name)).toEqual(["first", "second"]);
  });

  it("read a report with its time and tokens", () => {
    expect(reportText({ outcome: { kind: "failed", reason: "it passed its time limit of 10 min" }, duration_ms: 600000, tokens: 5 })).toBe(
      "failed: it passed its time limit of 10 min (600.0 s, 5 tokens)",
    );
    const note = 'model "Fruit" is not available (available: none), so it ran on this conversation\'s model';
    expect(reportText({ outcome: { kind: "submitted", result: "red" }, duration_ms: 1500, tokens: 9, note })).toBe(
      `submitted (1.5 s, 9 tokens; ${note})`,
    );
  });
});
