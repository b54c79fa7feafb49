// Checkpoints in the settings: how long they are kept, the space they may
// take, and the space they take now. Saving prunes what falls outside.
import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { CheckpointStorage } from "../generated/protocol";
import { counted } from "../counted";

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function CheckpointsPanel({ backend }: { backend: Backend }) {
  const [view, setView] = useState<CheckpointStorage | null>(null);
  const [days, setDays] = useState("");
  const [budget, setBudget] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const show = (v: CheckpointStorage) => {
    setView(v);
    setDays(String(v.keep_days));
    setBudget(String(v.budget_mb));
  };
  useEffect(() => {
    backend.getCheckpointStorage().then(show, (e: Error) => setError(e.message));
  }, [backend]);
  if (!view) return <section className="checkpoints" aria-label="Checkpoints" aria-busy={!error}>{error ? <div className="field-error" role="alert">{error}</div> : null}</section>;
  const save = () => {
    const d = Number(days);
    const b = Number(budget);
    if (!Number.isInteger(d) || d < 1 || !Number.isInteger(b) || b < 1) {
      setError("Keep checkpoints at least one day, within at least 1 MB (whole numbers).");
      return;
    }
    setSaving(true);
    setError(null);
    backend
      .setCheckpointStorage(d, b)
      .then(show, (e: Error) => setError(e.message))
      .finally(() => setSaving(false));
  };
  return (
    <section className="checkpoints" aria-label="Checkpoints">
      <h2>Checkpoints</h2>
      <p className="hint">
        What each turn changed in the files, kept so it can be rewound or undone: {counted(view.checkpoints, "checkpoint")}, <strong data-testid="checkpoint-space">{size(view.used_bytes)}</strong> on disk. The newest change of each file in a conversation is always kept.
      </p>
      <form
        className="checkpoint-form"
        // Braid says what is wrong in words, not the browser's bubble.
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label>
          Keep for <input type="number" min={1} value={days} onChange={(e) => setDays(e.target.value)} aria-label="Days to keep checkpoints" /> days
        </label>
        <label>
          within <input type="number" min={1} value={budget} onChange={(e) => setBudget(e.target.value)} aria-label="Checkpoint space budget in MB" /> MB
        </label>
        <button type="submit" disabled={saving}>{saving ? "Pruning…" : "Save and prune"}</button>
      </form>
      {error ? <div className="field-error" role="alert">{error}</div> : null}
    </section>
  );
}
