// Panels and dialogs the first screen does not show load their code when
// first opened: the bundle the window parses at start is smaller
// (docs/PERFORMANCE.md, first paint). They open a moment later the first
// time (a chunk read from the app itself, a few ms); nothing shows
// meanwhile, and the rest of the screen never waits for them.
import { lazy, Suspense, type ComponentType } from "react";

export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  return function OnDemand(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}
