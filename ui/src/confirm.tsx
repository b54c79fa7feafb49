import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from "react";
import { useModal } from "./useModal";

/** A question before something that cannot be taken back. */
export type ConfirmRequest = {
  title: string;
  message: string;
  /** The button that goes ahead ("Delete", "Remove"). */
  confirm: string;
  /** The button that does not ("Cancel" unless said). */
  cancel?: string;
  /** Destructive: the focus starts on Cancel, and the button is red. */
  danger?: boolean;
};

type Ask = (request: ConfirmRequest) => Promise<boolean>;

// Without a provider (a component rendered alone, as in unit tests) every
// question is answered "no": nothing destructive happens by default.
const ConfirmContext = createContext<Ask>(() => Promise.resolve(false));

/** Asks the user in the app's own dialog (not `window.confirm`, which the
 *  desktop window titles "JavaScript – tauri://localhost" and screen
 *  readers announce poorly): `if (await confirm({...})) remove()`. */
export function useConfirm(): Ask {
  return useContext(ConfirmContext);
}

type Pending = { request: ConfirmRequest; answer: (yes: boolean) => void };

/** One question at a time, over the whole app; a second one waits. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Pending[]>([]);
  const ask = useCallback<Ask>(
    (request) =>
      new Promise<boolean>((resolve) => {
        const answer = (yes: boolean) => {
          setQueue((q) => q.slice(1));
          resolve(yes);
        };
        setQueue((q) => [...q, { request, answer }]);
      }),
    [],
  );
  const current = queue[0];
  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      {current ? <ConfirmDialog key={queue.length} {...current} /> : null}
    </ConfirmContext.Provider>
  );
}

/** A modal dialog: the focus moves into it, Esc (or Cancel) answers no. */
function ConfirmDialog({ request, answer }: Pending) {
  const dialog = useModal();
  const answered = useRef(false);
  const once = (yes: boolean) => {
    if (answered.current) return;
    answered.current = true;
    answer(yes);
  };
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      role="alertdialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
      onCancel={(e) => {
        e.preventDefault();
        once(false);
      }}
    >
      <h2 id="confirm-title">{request.title}</h2>
      <p id="confirm-message">{request.message}</p>
      <div className="dialog-buttons">
        <button type="button" autoFocus={request.danger} onClick={() => once(false)}>
          {request.cancel ?? "Cancel"}
        </button>
        <button type="button" className={request.danger ? "primary danger" : "primary"} autoFocus={!request.danger} onClick={() => once(true)}>
          {request.confirm}
        </button>
      </div>
    </dialog>
  );
}
