// How many files and lines a message or a turn changed: on the branch
// graph's nodes and on the review chip after a turn.
import type { ChangeCount } from "../generated/protocol";
import { counted } from "../counted";

/** The files and lines a node's tools changed. */
export function ChangeBadge({ count }: { count: ChangeCount }) {
  const files = counted(count.files, "file");
  return (
    <span className="change-badge" title={`Changed ${files}: ${count.added} lines added, ${count.removed} removed`}>
      {files} <span className="added">+{count.added}</span> <span className="removed">−{count.removed}</span>
    </span>
  );
}
