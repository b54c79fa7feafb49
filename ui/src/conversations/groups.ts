import type { ContextSummary } from "../generated/protocol";

export interface Group {
  label: string;
  items: ContextSummary[];
}

const DAY = 24 * 60 * 60 * 1000;

/** Pinned first, then by when each last changed: Today, Yesterday,
 *  Previous 7 days, Previous 30 days, then one group per month. Each
 *  group keeps the order it was given (most recent first); empty groups
 *  are left out. `now` is the local time. */
export function groupByDate(items: ContextSummary[], now: Date): Group[] {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const label = (ms: number): string => {
    if (ms >= midnight) return "Today";
    if (ms >= midnight - DAY) return "Yesterday";
    if (ms >= midnight - 7 * DAY) return "Previous 7 days";
    if (ms >= midnight - 30 * DAY) return "Previous 30 days";
    return new Date(ms).toLocaleDateString(undefined, { month: "long", year: "numeric" });
  };
  const groups: Group[] = [];
  const add = (name: string, c: ContextSummary) => {
    const g = groups.find((x) => x.label === name);
    if (g) g.items.push(c);
    else groups.push({ label: name, items: [c] });
  };
  for (const c of items) if (c.pinned) add("Pinned", c);
  for (const c of items) if (!c.pinned) add(label(c.updated_at), c);
  return groups;
}
