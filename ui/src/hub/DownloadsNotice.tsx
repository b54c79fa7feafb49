import type { Backend } from "../backend/types";
import { progressText } from "./Downloads";
import { isActive, useDownloads } from "./useDownloads";

/** A corner notice while models download, wherever the user is. */
export function DownloadsNotice({ backend, onLanded }: { backend: Backend; onLanded: () => void }) {
  const { view } = useDownloads(backend, onLanded);
  const active = view?.downloads.filter(isActive) ?? [];
  if (active.length === 0) return null;
  return (
    <div className="downloads-notice" role="status" aria-label="Model downloads">
      {active.map((d) => (
        <div key={d.id}>
          <strong>{d.name}</strong>
          <progress max={d.bytes || 1} value={d.done} aria-hidden="true" />
          <small>{progressText(d)}</small>
        </div>
      ))}
    </div>
  );
}
