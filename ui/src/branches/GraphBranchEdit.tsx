import { useState } from "react";
import type { GraphBranch } from "../generated/protocol";
import { useConfirm } from "../confirm";
import { branchLabel } from "./label";

interface Props {
  branch: GraphBranch;
  /** The branch in use cannot be deleted; main never can. */
  active: boolean;
  onRename: (name: string) => void;
  onDelete: () => void;
}

/** Renaming and deleting the selected message's branch from the history
 *  graph, as the branch panel does: a name edited in place (Enter keeps,
 *  Esc leaves it), a delete asked to be confirmed. */
export function GraphBranchEdit({ branch, active, onRename, onDelete }: Props) {
  const confirm = useConfirm();
  const [name, setName] = useState<string | null>(null);
  if (name !== null) {
    const save = () => {
      if (name.trim() && name.trim() !== branch.name) onRename(name.trim());
      setName(null);
    };
    return (
      <input
        aria-label={`New name for ${branchLabel(branch)}`}
        autoFocus
        value={name}
        maxLength={80}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          // The graph's own keys (Esc closes it, arrows move) stay out of the field.
          e.stopPropagation();
          if (e.key === "Enter") save();
          if (e.key === "Escape") setName(null);
        }}
        onBlur={save}
      />
    );
  }
  const undeletable = branch.id === "main" ? "main cannot be deleted" : active ? "Switch to another branch to delete this one" : null;
  return (
    <>
      <button type="button" onClick={() => setName(branch.name)}>Rename {branchLabel(branch)}</button>
      <button
        type="button"
        className="danger"
        disabled={undeletable !== null}
        title={undeletable ?? `Delete ${branchLabel(branch)}; messages other branches share stay`}
        onClick={() => void confirm({ title: "Delete the branch?", message: `Delete the branch "${branchLabel(branch)}"? Messages other branches share stay.`, confirm: "Delete", danger: true }).then((yes) => yes && onDelete())}
      >
        Delete {branchLabel(branch)}…
      </button>
    </>
  );
}
