import type { EffectiveModel } from "../generated/protocol";

/** Ways to begin: each fills the message box (nothing is sent until Enter). */
export const STARTERS = [
  "What does this project do? Look at its files and tell me in a few lines.",
  "Find where errors are handled in this codebase and list the weak spots.",
  "Explain how a three-way merge decides what to keep, with a small example.",
  "Draft a commit message for the changes in this folder.",
];

/** A conversation with nothing in it yet: who answers, where it works,
 *  and a few ways to begin. */
export function EmptyChat({ model, folder, onPick }: { model: EffectiveModel | null; folder: string; onPick: (text: string) => void }) {
  return (
    <div className="empty-chat" data-testid="empty-chat">
      <p>
        {model ? <>Answers come from <strong>{model.provider_name} · {model.model}</strong></> : <>No model is set up yet: open Settings to add one</>}
        {", working in "}
        <code>{folder}</code>.
      </p>
      <ul aria-label="Ways to begin">
        {STARTERS.map((s) => (
          <li key={s}>
            <button type="button" onClick={() => onPick(s)}>{s}</button>
          </li>
        ))}
      </ul>
      <small>Type <kbd>@</kbd> to reference a file, <kbd>/</kbd> for commands (<code>/context</code>, <code>/compact</code>, <code>/tool</code>), Ctrl+/ for every shortcut.</small>
    </div>
  );
}
