import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { SettingsView, StandingInstructions } from "../generated/protocol";

/** As the core allows: longer would crowd a small model's window. */
const MAX = 3000;

/** What the user tells every conversation, after the base prompt: about
 *  them, and how they like answers. Saved with Save (Ctrl+Enter); counts
 *  from the next request of every conversation. */
export function InstructionsPanel({ backend, settings, onChange, onError }: { backend: Backend; settings: SettingsView; onChange: (v: SettingsView) => void; onError: (e: Error) => void }) {
  const [draft, setDraft] = useState<StandingInstructions>(settings.instructions);
  const [saved, setSaved] = useState(false);
  useEffect(() => setDraft(settings.instructions), [settings.instructions]);
  const changed = draft.about_me !== settings.instructions.about_me || draft.how_to_answer !== settings.instructions.how_to_answer;
  const save = () =>
    void backend.setStandingInstructions(draft).then((v) => {
      setSaved(true);
      onChange(v);
    }, onError);
  const field = (key: keyof StandingInstructions, label: string, placeholder: string) => (
    <label className="instructions-field">
      <span>{label}</span>
      <textarea
        aria-label={label}
        rows={3}
        maxLength={MAX}
        placeholder={placeholder}
        value={draft[key]}
        onChange={(e) => {
          setSaved(false);
          setDraft({ ...draft, [key]: e.target.value });
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && changed) {
            e.preventDefault();
            save();
          }
        }}
      />
      <small>{draft[key].length} / {MAX}</small>
    </label>
  );
  return (
    <fieldset className="standing-instructions">
      <legend>Your instructions</legend>
      <p className="hint">Sent after the base prompt in every conversation, from its next answer on.</p>
      {field("about_me", "About you", "e.g. I write Rust and TypeScript on Linux; I know git well.")}
      {field("how_to_answer", "How to answer", "e.g. Be brief. Show code before explaining it. British spelling.")}
      <div className="buttons">
        <button type="button" className="primary" disabled={!changed} onClick={save} title="Save (Ctrl+Enter)">Save instructions</button>
        {changed ? <button type="button" onClick={() => setDraft(settings.instructions)}>Undo changes</button> : null}
        {saved && !changed ? <span role="status" className="hint">Saved: every conversation gets them from its next answer.</span> : null}
      </div>
    </fieldset>
  );
}
