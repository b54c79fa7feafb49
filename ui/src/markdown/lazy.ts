// The plugins kept out of the first load (maths, highlighting): loaded on
// first need, after which every block that needed one draws again. Until
// then a block shows its text unformatted (for a fraction of a second).
import { useSyncExternalStore } from "react";

export interface Heavy {
  /** remark-math and rehype-katex. */
  maths?: { remark: unknown; rehype: unknown };
  /** rehype-highlight. */
  highlight?: unknown;
}

export const heavy: Heavy = {};
let version = 0;
const listeners = new Set<() => void>();
const loading: Partial<Record<keyof Heavy, Promise<void>>> = {};

function loaded() {
  version += 1;
  listeners.forEach((l) => l());
}

/** Starts loading what `maths` and `code` need, if not already. A load
 *  that fails leaves the text plain and is tried again by the next block
 *  that needs it. */
export function need(maths: boolean, code: boolean): Promise<void> {
  const retry = (kind: keyof Heavy) => () => void delete loading[kind];
  if (maths)
    loading.maths ??= import("./maths").then((m) => {
      heavy.maths = { remark: m.remark, rehype: m.rehype };
      loaded();
    }, retry("maths"));
  if (code)
    loading.highlight ??= import("./highlight").then((m) => {
      heavy.highlight = m.rehype;
      loaded();
    }, retry("highlight"));
  return Promise.all([maths && loading.maths, code && loading.highlight]).then(() => undefined);
}

/** Draws the caller again once more plugins are loaded. */
export function useLoaded(): number {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => version,
    () => version,
  );
}
