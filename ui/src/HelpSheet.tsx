import { MESSAGE_KEYS } from "./chat/MessageActions";
import { useModal } from "./useModal";

/** Every keyboard shortcut, by where it works. */
export const SHORTCUTS: [string, [string, string][]][] = [
  [
    "Anywhere",
    [
      ["Ctrl+Shift+O", "a new conversation"],
      ["Ctrl+,", "settings"],
      ["Ctrl+B", "hide or show the conversation list"],
      ["Ctrl+Shift+H", "the history graph of every branch"],
      ["Ctrl+Shift+I", "what the model sees: the last request as sent"],
      ["Ctrl+/", "this sheet"],
    ],
  ],
  [
    "In the message box",
    [
      ["Enter", "send (queued while an answer is on its way)"],
      ["Shift+Enter", "a new line"],
      ["@", "reference a file (path:10-20 for lines); ↑/↓ and Enter pick"],
      ["/", "commands: /help lists them; /tool name makes the model use a tool"],
      ["/name", "run a workflow (.braid/workflows/name.md): a form asks for its parameters"],
      ["Ctrl+O", "attach images (or paste or drop them)"],
      ["Esc", "stop the answer and keep what it wrote; Esc again discards it"],
    ],
  ],
  ["On a message (Tab to it)", Object.entries(MESSAGE_KEYS)],
  [
    "In the history graph",
    [
      ["↑ / ↓", "along the line"],
      ["Alt+↑ / Alt+↓", "between forks of the same message"],
      ["Alt+←", "up to the fork"],
      ["Enter", "open the message in the chat, on its branch"],
      ["Esc", "close it"],
    ],
  ],
  [
    "In a tool approval",
    [
      ["Enter", "approve (the focused button)"],
      ["Esc", "deny"],
    ],
  ],
];

/** The keyboard shortcuts, as a modal sheet (Ctrl+/; Esc closes it). */
export function HelpSheet({ onClose }: { onClose: () => void }) {
  const dialog = useModal();
  return (
    <dialog ref={dialog} className="help-sheet" aria-labelledby="help-title" onClose={onClose}>
      <h2 id="help-title">Keyboard shortcuts</h2>
      {SHORTCUTS.map(([where, keys]) => (
        <section key={where} aria-label={where}>
          <h3>{where}</h3>
          <dl>
            {keys.map(([k, what]) => (
              <div key={k}>
                <dt><kbd>{k}</kbd></dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <div className="dialog-buttons">
        <button type="button" onClick={() => dialog.current?.close()}>Close</button>
      </div>
    </dialog>
  );
}
