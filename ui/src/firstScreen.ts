// The first screen with the user's data (the start page, or the
// conversation reopened): the frame that draws it is marked
// `braid:first-paint` for the startup measurement (e2e/installed.mjs).
// Once per page.
let done = false;

export function firstScreen() {
  if (done) return;
  done = true;
  performance.mark("braid:ready");
  // Just after the frame is painted: a task queued from its callback.
  requestAnimationFrame(() => setTimeout(() => performance.mark("braid:first-paint"), 0));
}
