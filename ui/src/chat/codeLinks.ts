// The codebase tools start each result's line with `path:line`; the tool
// card turns those into links that open the file at the line.
import { createContext } from "react";

/** The tools whose results carry `path:line` links. */
export const CODEBASE_TOOLS = new Set(["codebase_search", "find_definition", "find_references", "get_project_overview"]);

export interface Located {
  path: string;
  line: number;
  /** What follows the location on that line. */
  rest: string;
}

/** `src/lib.rs:7 · fn parse` → its path, line and the rest; null for any
 *  other line (snippet lines start with spaces or `>`). */
export function located(line: string): Located | null {
  const m = /^([^\s:>]+):(\d+)(.*)$/.exec(line);
  return m ? { path: m[1], line: Number(m[2]), rest: m[3] } : null;
}

/** Opens a workspace file at a line (null where nothing can). */
export const OpenFile = createContext<((path: string, line: number) => void) | null>(null);
