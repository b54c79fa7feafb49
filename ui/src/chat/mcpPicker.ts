// MCP resources in the `@` picker: typed as `@server:uri`, found by the
// server's name, the resource's name or its URI.
import type { McpResourceInfo } from "../generated/protocol";

/** At most this many resources are offered at once. */
const SHOWN = 8;

/** The `server:uri` of the resources `query` finds, best first: a server
 *  named by the query's start, then a name or URI holding it. */
export function resourceMatches(resources: McpResourceInfo[], query: string): string[] {
  const q = query.toLowerCase();
  const key = (r: McpResourceInfo) => `${r.server}:${r.uri}`;
  const scored = resources
    .map((r) => {
      const k = key(r).toLowerCase();
      if (!q) return { r, score: 2 };
      if (k.startsWith(q)) return { r, score: 0 };
      if (r.name.toLowerCase().includes(q) || k.includes(q)) return { r, score: 1 };
      return null;
    })
    .filter((x): x is { r: McpResourceInfo; score: number } => x !== null);
  scored.sort((a, b) => a.score - b.score);
  return scored.slice(0, SHOWN).map((x) => key(x.r));
}
