import { describe, expect, it } from "vitest";
import type { GraphRow } from "../generated/protocol";
import { indexRows, moveFor, step } from "./graphNav";

const row = (id: number, parents: number[], lane: number): GraphRow => ({
  id,
  parents,
  lane,
  color: lane,
  up: parents.length > 0,
  down: true,
  forks: [],
  merges: [],
  kind: "text",
  role: "user",
  preview: `m${id}`,
  created_at: id,
  tips: [],
  merge: parents.length > 1,
  spawns: [],
});

// 1 - 2 - 3 - 6(merge of 5)      lane 0
//      \- 4 - 5                   lane 1
//      \- 7                       lane 2
const rows = [row(1, [], 0), row(2, [1], 0), row(3, [2], 0), row(4, [2], 1), row(5, [4], 1), row(6, [3, 5], 0), row(7, [2], 2)];
const index = indexRows(rows);
const at = (id: number) => rows.findIndex((r) => r.id === id);

describe("graph keyboard moves", () => {
  it("go along a line with the arrows", () => {
    expect(rows[step(rows, index, at(2), "down")].id).toBe(3);
    expect(rows[step(rows, index, at(3), "down")].id).toBe(6);
    expect(rows[step(rows, index, at(5), "up")].id).toBe(4);
    expect(step(rows, index, at(1), "up")).toBe(at(1));
  });
  it("go between siblings with Alt", () => {
    expect(rows[step(rows, index, at(3), "nextSibling")].id).toBe(4);
    expect(rows[step(rows, index, at(4), "nextSibling")].id).toBe(7);
    expect(rows[step(rows, index, at(4), "prevSibling")].id).toBe(3);
    expect(step(rows, index, at(7), "nextSibling")).toBe(at(7));
  });
  it("go up to the fork with Alt+Left", () => {
    expect(rows[step(rows, index, at(5), "forkPoint")].id).toBe(2);
    expect(step(rows, index, at(1), "forkPoint")).toBe(at(1));
  });
  it("read keys", () => {
    expect(moveFor({ key: "ArrowUp", altKey: true })).toBe("prevSibling");
    expect(moveFor({ key: "ArrowLeft", altKey: true })).toBe("forkPoint");
    expect(moveFor({ key: "ArrowLeft", altKey: false })).toBeNull();
  });
});
