/** ‹ 2 / 3 ›: the versions of a message (an edited question, an answer
 *  written again), switched between where they happened. Each version is
 *  a branch underneath; switching keeps every one. */
export interface Versions {
  index: number;
  total: number;
  /** Absent at the first/last version, or while busy. */
  onPrev?: () => void;
  onNext?: () => void;
}

export function VersionSwitch({ v }: { v: Versions }) {
  return (
    <span className="versions" role="group" aria-label={`Version ${v.index} of ${v.total}`}>
      <button type="button" className="icon" aria-label="Previous version" title="The previous version ([)" disabled={!v.onPrev} onClick={v.onPrev}>‹</button>
      <span className="versions-count" aria-hidden="true">{v.index} / {v.total}</span>
      <button type="button" className="icon" aria-label="Next version" title="The next version (])" disabled={!v.onNext} onClick={v.onNext}>›</button>
    </span>
  );
}
