import { useEffect, useRef } from "react";

/** The image at full size over the chat; Esc, the close button or a click
 *  outside the image closes it. */
export function ImageViewer({ url, name, onClose }: { url: string; name: string; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div className="viewer" role="dialog" aria-modal="true" aria-label={`Image ${name}`} onClick={onClose}>
      <div className="viewer-bar" onClick={(e) => e.stopPropagation()}>
        <span>{name}</span>
        <button ref={close} type="button" onClick={onClose} aria-label="Close">✕</button>
      </div>
      <img src={url} alt={name} onClick={(e) => e.stopPropagation()} />
    </div>
  );
}
