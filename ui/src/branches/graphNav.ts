// Moving through the history graph by keyboard, over the rows the core
// laid out: along a line (↑ to the message it follows, ↓ to the one that
// carries its line on), between siblings (other messages that follow the
// same one: the forks), and up to where the line forked. Pure and tested.
import type { GraphRow } from "../generated/protocol";

export interface GraphIndex {
  at: Map<number, number>;
  children: Map<number, number[]>;
}

export function indexRows(rows: GraphRow[]): GraphIndex {
  const at = new Map<number, number>();
  const children = new Map<number, number[]>();
  rows.forEach((r, i) => {
    at.set(r.id, i);
    const p = r.parents[0];
    if (p !== undefined) {
      const list = children.get(p) ?? [];
      list.push(i);
      children.set(p, list);
    }
  });
  return { at, children };
}

export type Move = "up" | "down" | "prevSibling" | "nextSibling" | "forkPoint";

/** The row to select after `move` from row `i`; `i` when there is none. */
export function step(rows: GraphRow[], index: GraphIndex, i: number, move: Move): number {
  const row = rows[i];
  if (!row) return i;
  const parentRow = (r: GraphRow) => (r.parents[0] === undefined ? undefined : index.at.get(r.parents[0]));
  switch (move) {
    case "up":
      return parentRow(row) ?? i;
    case "down": {
      const kids = index.children.get(row.id) ?? [];
      return kids.find((k) => rows[k].lane === row.lane) ?? kids[0] ?? i;
    }
    case "prevSibling":
    case "nextSibling": {
      const p = row.parents[0];
      const sibs = p === undefined ? [] : (index.children.get(p) ?? []);
      const at = sibs.indexOf(i);
      const next = move === "nextSibling" ? sibs[at + 1] : sibs[at - 1];
      return next ?? i;
    }
    case "forkPoint": {
      // Up the line to the first message that more than one follows.
      let cur = parentRow(row);
      while (cur !== undefined) {
        if ((index.children.get(rows[cur].id) ?? []).length > 1) return cur;
        cur = parentRow(rows[cur]);
      }
      return i;
    }
  }
}

/** The move a key press asks for, if any. */
export function moveFor(e: { key: string; altKey: boolean }): Move | null {
  if (e.key === "ArrowUp") return e.altKey ? "prevSibling" : "up";
  if (e.key === "ArrowDown") return e.altKey ? "nextSibling" : "down";
  if (e.key === "ArrowLeft" && e.altKey) return "forkPoint";
  return null;
}

/** Stable branch colours: the core's colour index into a palette. */
export const PALETTE = ["#4f7cff", "#e0873c", "#3aa876", "#c054c9", "#d4b21f", "#2fb3c4", "#e05168", "#8a8f99"];
export const colour = (c: number) => PALETTE[c % PALETTE.length];
