// Files dragged over the chat: a hint says where they will go, and a drop
// attaches them to the message being written.
import { useMemo, useState, type DragEvent } from "react";

export function useDropImages(add: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  const handlers = useMemo(
    () => ({
      onDragOver: (e: DragEvent<HTMLElement>) => {
        if (Array.from(e.dataTransfer?.types ?? []).includes("Files")) {
          e.preventDefault();
          setDragging(true);
        }
      },
      onDragLeave: (e: DragEvent<HTMLElement>) => {
        // Leaving for a child is not leaving the chat.
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      },
      // Capture: the composer handles its own drops and stops them there.
      onDropCapture: () => setDragging(false),
      onDrop: (e: DragEvent<HTMLElement>) => {
        const files = Array.from(e.dataTransfer?.files ?? []);
        if (files.length) {
          e.preventDefault();
          add(files);
        }
      },
    }),
    [add],
  );
  return { dragging, handlers };
}
