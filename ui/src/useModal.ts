// Every dialog of the app opens the same way: a <dialog> shown modal as
// soon as it is mounted (the focus moves into it; Esc cancels it).
import { useEffect, useRef } from "react";

/** The ref to put on a <dialog> that opens modal once mounted. */
export function useModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  return dialog;
}
