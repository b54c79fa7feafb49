import type { Download } from "../generated/protocol";
import { formatSize } from "../settings/LocalModelsPanel";
import { timeLeft } from "./useDownloads";

const STATE = { queued: "Waiting", running: "", verifying: "Checking the SHA-256…", paused: "Paused", failed: "Stopped", done: "On the shelf" } as const;

/** "41 MB of 986 MB · 12 MB/s · 1 min left". */
export function progressText(d: Download): string {
  const parts = [`${formatSize(d.done)} of ${formatSize(d.bytes)}`];
  if (d.state === "running" && d.speed > 0) parts.push(`${formatSize(d.speed)}/s`, timeLeft(d.eta_seconds));
  else if (STATE[d.state]) parts.push(STATE[d.state]);
  return parts.filter(Boolean).join(" · ");
}

interface Props {
  downloads: Download[];
  onPause: (id: string) => void;
  onResume: (id: string) => void;
  onCancel: (d: Download) => void;
}

/** Each download with its bar, pace and time left, and what can be done
 *  with it. */
export function DownloadList({ downloads, onPause, onResume, onCancel }: Props) {
  if (downloads.length === 0) return null;
  return (
    <ul className="downloads" aria-label="Downloads">
      {downloads.map((d) => (
        <li key={d.id} data-state={d.state}>
          <div>
            <strong>{d.name}</strong>
            <small>{d.repo}</small>
            <progress max={d.bytes || 1} value={d.done} aria-label={`${d.name} downloaded`} />
            <small className="download-progress">{progressText(d)}</small>
            {d.error ? <small className="field-error" role="alert">{d.error}</small> : null}
          </div>
          <div className="actions">
            {d.state === "running" || d.state === "queued" ? <button type="button" onClick={() => onPause(d.id)}>Pause</button> : null}
            {d.state === "paused" || d.state === "failed" ? <button type="button" onClick={() => onResume(d.id)}>Resume</button> : null}
            <button type="button" onClick={() => onCancel(d)}>{d.state === "done" ? "Dismiss" : "Cancel"}</button>
          </div>
        </li>
      ))}
    </ul>
  );
}
