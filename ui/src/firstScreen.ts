// The first screen with the user's data (the start page, or the
// conversation reopened): the frame that draws it is marked
// `braid:first-paint` for the startup measurement (e2e/installed.mjs), and
// the backend is told (the desktop's built-in model gets ready then, not
// while the window starts). Once per page.
import type { Backend } from "./backend/types";

let done = false;

export function firstScreen(backend: Backend) {
  if (done) return;
  done = true;
  performance.mark("braid:ready");
  // Just after the frame is painted: a task queued from its callback.
  requestAnimationFrame(() =>
    setTimeout(() => {
      performance.mark("braid:first-paint");
      void backend.firstScreen?.().catch(() => undefined);
    }, 0),
  );
}
