// Picks the backend for where the UI runs: the desktop window's IPC, or in a
// browser the HTTP/SSE server that served the page; the token comes from the URL once and is
// kept for the tab.
import { setSystemClipboard } from "../clipboard";
import { TauriBackend } from "./tauri";
import type { Backend } from "./types";
import { WebBackend } from "./web";

export function connect(): Backend {
  if ("__TAURI_INTERNALS__" in window) {
    const tauri = new TauriBackend();
    setSystemClipboard((text) => tauri.copyText(text));
    return tauri;
  }
  const params = new URLSearchParams(window.location.search);
  const fromUrl = params.get("token");
  if (fromUrl) {
    sessionStorage.setItem("braid-token", fromUrl);
    // Keep the token out of the address bar and the history.
    window.history.replaceState(null, "", window.location.pathname);
  }
  return new WebBackend(window.location.origin, sessionStorage.getItem("braid-token") ?? "");
}
