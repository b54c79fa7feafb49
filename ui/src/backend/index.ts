// Picks the backend for where the UI runs. In a browser it is the HTTP/SSE
// server that served the page; the token comes from the URL once and is
// kept for the tab.
import type { Backend } from "./types";
import { WebBackend } from "./web";

export function connect(): Backend {
  const params = new URLSearchParams(window.location.search);
  const fromUrl = params.get("token");
  if (fromUrl) {
    sessionStorage.setItem("braid-token", fromUrl);
    // Keep the token out of the address bar and the history.
    window.history.replaceState(null, "", window.location.pathname);
  }
  return new WebBackend(window.location.origin, sessionStorage.getItem("braid-token") ?? "");
}
