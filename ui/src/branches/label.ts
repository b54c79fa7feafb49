/** What a branch is called where it is named: its name, or for an unnamed
 *  one (a version an edit or an answer again made, until the user names
 *  it) its id. As `branch_label` in the protocol. */
export function branchLabel(b: { id: string; name: string }): string {
  return b.name || `unnamed ${b.id}`;
}
