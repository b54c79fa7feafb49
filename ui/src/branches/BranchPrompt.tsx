import { useState } from "react";
import type { BranchSummary } from "../generated/protocol";
import { branchLabel } from "./label";

interface Props {
  branch: BranchSummary;
  /** `null` clears it: the branch uses the conversation's prompt again. */
  onSave: (prompt: string | null) => void;
  onClose: () => void;
}

/** A branch's own system prompt, edited in place in the branch panel.
 *  Ctrl+Enter saves, Esc leaves it as it was. */
export function BranchPrompt({ branch, onSave, onClose }: Props) {
  const [text, setText] = useState(branch.system_prompt ?? "");
  const save = () => {
    onSave(text.trim() ? text : null);
    onClose();
  };
  return (
    <div className="branch-prompt" role="group" aria-label={`System prompt of ${branchLabel(branch)}`}>
      <textarea
        aria-label={`System prompt for ${branchLabel(branch)}`}
        autoFocus
        rows={4}
        placeholder="Empty: the conversation's system prompt"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            save();
          }
          if (e.key === "Escape") {
            e.stopPropagation();
            onClose();
          }
        }}
      />
      <div className="actions">
        <small>Used in place of the conversation&apos;s prompt on {branchLabel(branch)}, from the next answer on.</small>
        {branch.system_prompt !== null && branch.system_prompt !== undefined ? (
          <button type="button" onClick={() => { onSave(null); onClose(); }}>Clear</button>
        ) : null}
        <button type="button" onClick={onClose}>Cancel</button>
        <button type="button" className="primary" onClick={save} title="Ctrl+Enter">Save</button>
      </div>
    </div>
  );
}
