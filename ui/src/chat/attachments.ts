// Images waiting in the composer: picked, pasted or dropped, stored at once
// (so a bad file is refused before anything is sent), shown as thumbnails
// with a mode, and sent with the message.
import { useCallback, useState } from "react";
import type { Backend } from "../backend/types";
import type { ImageAttachment, ImageMode, StoredImage } from "../generated/protocol";

export const ACCEPTED = ["image/png", "image/jpeg", "image/webp", "image/gif"];
/** As the backend's store; larger files are refused here, unsent. */
export const MAX_BYTES = 40 * 1024 * 1024;

export interface Pending {
  key: string;
  name: string;
  /** A data: URL of the file, for the thumbnail. */
  preview: string;
  mode: ImageMode;
  stored: StoredImage | null;
  error: string | null;
}

/** Why a file cannot be attached, or null. */
export function refusal(file: { name: string; type: string; size: number }): string | null {
  if (!ACCEPTED.includes(file.type)) return `${file.name || "This file"} is not a PNG, JPEG, WebP or GIF image`;
  if (file.size === 0) return `${file.name || "The image"} is empty`;
  if (file.size > MAX_BYTES) return `${file.name || "The image"} is larger than 40 MB`;
  return null;
}

/** The image files among dropped or pasted items. */
export function imageFiles(list: FileList | File[] | null | undefined): File[] {
  return Array.from(list ?? []).filter((f) => f.type.startsWith("image/") || f.name.match(/\.(png|jpe?g|webp|gif)$/i));
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error("could not read the file"));
    r.readAsDataURL(file);
  });
}

/** Only images that were stored go with a message. */
export function toAttachments(pending: Pending[]): ImageAttachment[] {
  return pending.filter((p) => p.stored).map((p) => ({ source: { kind: "stored", ...p.stored! }, mode: p.mode }));
}

export function pastedName(n: number, type: string): string {
  return `pasted-${n}.${type.split("/")[1] ?? "png"}`;
}

let counter = 0;

export function useAttachments(backend: Backend) {
  const [pending, setPending] = useState<Pending[]>([]);
  const update = (key: string, change: Partial<Pending>) =>
    setPending((list) => list.map((p) => (p.key === key ? { ...p, ...change } : p)));

  const add = useCallback(
    (files: File[]) => {
      for (const file of files) {
        const key = `a${++counter}`;
        const name = file.name || pastedName(counter, file.type);
        const why = refusal({ name, type: file.type, size: file.size });
        setPending((list) => [...list, { key, name, preview: "", mode: "auto", stored: null, error: why }]);
        if (why) continue;
        readAsDataUrl(file)
          .then((url) => {
            update(key, { preview: url });
            return backend.storeImage(url.slice(url.indexOf(",") + 1), name);
          })
          .then((stored) => update(key, { stored }), (e) => update(key, { error: e instanceof Error ? e.message : String(e) }));
      }
    },
    [backend],
  );
  /** A paste that brought no files: in the desktop window the event
   *  carries no clipboard data, so the image (if any) is asked for. */
  const pasteFromSystem = useCallback(() => {
    backend.clipboardImage?.().then(
      (b64) => {
        if (!b64) return;
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        add([new File([bytes], pastedName(counter + 1, "image/png"), { type: "image/png" })]);
      },
      () => undefined,
    );
  }, [backend, add]);
  const remove = useCallback((key: string) => setPending((list) => list.filter((p) => p.key !== key)), []);
  const setMode = useCallback((key: string, mode: ImageMode) => update(key, { mode }), []);
  const clear = useCallback(() => setPending([]), []);
  const uploading = pending.some((p) => !p.stored && !p.error);
  return { pending, add, pasteFromSystem, remove, setMode, clear, uploading };
}

export type Attachments = ReturnType<typeof useAttachments>;
