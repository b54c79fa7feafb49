/** What a branch is called where it is named: its name, or for an unnamed
 *  one (a version an edit or an answer again made, until the user names
 *  it) its id. As `branch_label` in the protocol. */
type Named = { id: string; name: string };

export function branchLabel(b: Named): string {
  return b.name || `unnamed ${b.id}`;
}

/** The branches as the menu lists them: main first, then the named ones
 *  by name as people count ("idea 2" before "idea 19"), then the unnamed
 *  versions, those matching `filter` (the branch in use always). */
export function branchOrder<B extends Named>(branches: B[], filter = "", active?: string): B[] {
  const f = filter.trim().toLowerCase();
  const rank = (b: Named) => (b.id === "main" ? 0 : b.name ? 1 : 2);
  const sorted = [...branches].sort(
    (a, b) => rank(a) - rank(b) || branchLabel(a).localeCompare(branchLabel(b), undefined, { numeric: true, sensitivity: "base" }),
  );
  return f ? sorted.filter((b) => b.id === active || branchLabel(b).toLowerCase().includes(f)) : sorted;
}
