import { useState } from "react";
import type { BranchSummary } from "../generated/protocol";
import { branchLabel } from "./label";

interface Props {
  branch: BranchSummary;
  /** `null` clears it: the branch uses the conversation's prompt again. */
  onSave: (prompt: string | null) => void;
  onClose: () => void;
  /** The words around it where it is the conversation's prompt. */
  words?: { group: string; field: string; note: string; placeholder: string };
}

/** A branch's own system prompt, edited in place in the branch panel.
 *  Ctrl+Enter saves, Esc leaves it as it was. */
export function BranchPrompt({ branch, onSave, onClose, words }: Props) {
  const [text, setText] = useState(branch.system_prompt ?? "");
  const name = branchLabel(branch);
  const w = words ?? {
    group: `System prompt of ${name}`,
    field: `System prompt for ${name}`,
    note: `Used in place of the conversation's prompt on ${name}, from the next answer on.`,
    placeholder: "Empty: the conversation's system prompt",
  };
  const save = () => {
    onSave(text.trim() ? text : null);
    onClose();
  };
  return (
    <div className="branch-prompt" role="group" aria-label={w.group}>
      <textarea
        aria-label={w.field}
        autoFocus
        rows={4}
        placeholder={w.placeholder}
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
        <small>{w.note}</small>
        {branch.system_prompt !== null && branch.system_prompt !== undefined ? (
          <button type="button" onClick={() => { onSave(null); onClose(); }}>Clear</button>
        ) : null}
        <button type="button" onClick={onClose}>Cancel</button>
        <button type="button" className="primary" onClick={save} title="Ctrl+Enter">Save</button>
      </div>
    </div>
  );
}
