// Copying text. A browser writes the clipboard itself; the desktop window
// may not (WebKitGTK refuses the page's writeText), so there the backend
// writes it. The backend's writer is given once, when it is connected.

let system: ((text: string) => Promise<void>) | undefined;

/** The backend's clipboard writer, where it has one. */
export function setSystemClipboard(write: ((text: string) => Promise<void>) | undefined) {
  system = write;
}

/** Copies `text`; false where nothing may write the clipboard. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (system) await system(text);
    else if (navigator.clipboard) await navigator.clipboard.writeText(text);
    else return false;
    return true;
  } catch {
    return false;
  }
}
