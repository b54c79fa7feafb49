// Rewinding from a question (its ⟲ action, the w key, or Esc Esc for the
// last one): the preview dialog, then the files, the conversation or
// both; and the undo of a file restore from its card.
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, Message } from "../generated/protocol";
import type { RewindChoice } from "./RewindDialog";
import { onDemand } from "../onDemand";

const RewindDialog = onDemand(() => import("./RewindDialog").then((m) => m.RewindDialog));

/** Two Escapes closer than this open the rewind of the last question. */
const DOUBLE_ESC_MS = 500;

export function useRewind(
  backend: Backend,
  id: ContextId,
  messages: Message[],
  busy: boolean,
  reload: () => void,
  report: (e: unknown) => void,
  toComposer: (r: { text: string; nonce: number }) => void,
): { rewinding: number | null; setRewinding: (m: number | null) => void; onUndoRestore: (note: number) => void; dialog: ReactNode } {
  const [rewinding, setRewinding] = useState<number | null>(null);
  const questionText = useCallback(
    (m: number) => {
      const b = messages.find((x) => x.id === m)?.body;
      return b?.type === "text" ? b.parts.map((p) => p.text).join("") : "";
    },
    [messages],
  );
  const lastEsc = useRef(0);
  useEffect(() => {
    // Seen before anything else handles Esc (a tooltip or menu closing
    // takes it otherwise); not from a field holding text, whose Esc is
    // its own.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || busy || rewinding !== null || document.querySelector("dialog[open]")) return;
      const field = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement ? e.target : null;
      if (field && field.value !== "") return;
      const now = Date.now();
      if (now - lastEsc.current < DOUBLE_ESC_MS) {
        const last = [...messages].reverse().find((m) => m.body.type === "text" && m.body.role === "user");
        // Opened once this Esc is over: a dialog shown while it is still
        // being handled would take it as its own Cancel.
        e.preventDefault();
        if (last) setTimeout(() => setRewinding(last.id), 0);
        lastEsc.current = 0;
      } else lastEsc.current = now;
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [messages, busy, rewinding]);
  const choose = useCallback(
    async (message: number, choice: RewindChoice, overwrite: string[]) => {
      setRewinding(null);
      // What was restored and kept is on the restore's card.
      if (choice !== "conversation") await backend.rewindFiles(id, message, overwrite);
      if (choice !== "files") {
        const branch = await backend.forkBefore(id, message, "Rewind");
        await backend.switchBranch(id, branch);
        toComposer({ text: questionText(message), nonce: Date.now() });
      }
    },
    [backend, id, questionText, toComposer],
  );
  const onUndoRestore = useCallback(
    (note: number) => void backend.undoRewind(id, note).then(reload, report),
    [backend, id, reload, report],
  );
  const dialog =
    rewinding !== null ? (
      <RewindDialog
        backend={backend}
        id={id}
        message={rewinding}
        onClose={() => setRewinding(null)}
        onChoose={(choice, overwrite) => void choose(rewinding, choice, overwrite).then(reload, report)}
      />
    ) : null;
  return { rewinding, setRewinding, onUndoRestore, dialog };
}
