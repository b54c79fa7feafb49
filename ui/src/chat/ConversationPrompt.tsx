import { useState } from "react";
import type { BranchSummary } from "../generated/protocol";
import { BranchPrompt } from "../branches/BranchPrompt";

const WORDS = {
  group: "The conversation's system prompt",
  field: "System prompt of this conversation",
  note: "In place of the base prompt on every branch without its own, from the next answer on.",
  placeholder: "Empty: Braid's base prompt",
};

/** The conversation's own system prompt (kept on main): it replaces the
 *  base prompt on every branch without a prompt of its own. Settable from
 *  the first message, not only once a second branch exists. */
export function ConversationPrompt({ main, onSave }: { main: BranchSummary | undefined; onSave: (prompt: string | null) => void }) {
  const [editing, setEditing] = useState(false);
  const current = main?.system_prompt ?? "";
  if (editing && main) return <BranchPrompt branch={main} words={WORDS} onSave={onSave} onClose={() => setEditing(false)} />;
  const shown = current ? `${current.slice(0, 40)}${current.length > 40 ? "…" : ""}` : "Braid's (set one…)";
  // The button's name holds its visible text (what a voice user says).
  return (
    <label title={current || "Braid's base prompt and your instructions from Settings"}>
      <span>System prompt</span>
      <button type="button" className="link" aria-label={`System prompt: ${shown}`} onClick={() => setEditing(true)}>
        {shown}
      </button>
    </label>
  );
}
