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

/** A step on the way to the first screen (`braid:<step>`, its first time
 *  only), so the measurement can say where the time went. */
export function startupStep(step: string) {
  if (!done && performance.getEntriesByName(`braid:${step}`).length === 0) performance.mark(`braid:${step}`);
}
