import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { Recommended } from "../generated/protocol";
import { formatSize } from "../settings/LocalModelsPanel";
import { progressText } from "./Downloads";
import { useDownloads } from "./useDownloads";

/** On the first page while the tiny starter answers: the model Braid
 *  would choose for this machine, downloaded in one click and then the
 *  one that answers. Nothing where the build runs no built-in model. */
export function BetterModel({ backend, onLanded }: { backend: Backend; onLanded: () => void }) {
  const [pick, setPick] = useState<Recommended | null>(null);
  const { view, error, act } = useDownloads(backend, onLanded);
  useEffect(() => {
    backend.recommendedModels().then((r) => setPick(r.models.find((m) => m.pick) ?? null), () => setPick(null));
  }, [backend]);
  if (!pick) return null;
  const mine = view?.downloads.find((d) => d.repo === pick.repo && d.file === pick.file);
  if (pick.on_shelf && !mine) return null;
  return (
    <span className="better-model" role="group" aria-label="A better model">
      {mine ? (
        <>
          <strong>{pick.label}</strong>: {mine.state === "done" ? "downloaded; it answers from now on." : progressText(mine)}
          {mine.state === "running" || mine.state === "verifying" || mine.state === "queued" ? <progress max={mine.bytes || 1} value={mine.done} aria-label={`${pick.label} downloaded`} /> : null}
          {mine.state === "paused" || mine.state === "failed" ? <button type="button" onClick={() => void act(backend.resumeDownload(mine.id))}>Resume</button> : null}
          {mine.error ? <small className="field-error" role="alert">{mine.error}</small> : null}
        </>
      ) : (
        <>
          Get a better model: <strong>{pick.label}</strong> ({pick.about}) is the pick for this machine.{" "}
          <button type="button" className="primary" onClick={() => void act(backend.downloadModel(pick.repo, pick.file, true))}>
            Download {pick.label} ({formatSize(pick.bytes)})
          </button>
        </>
      )}
      {error ? <small className="field-error" role="alert">{error}</small> : null}
    </span>
  );
}
