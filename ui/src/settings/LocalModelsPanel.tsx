import { useCallback, useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { LocalModelSettings, LocalModelsView, MemoryEstimate } from "../generated/protocol";
import { useConfirm } from "../confirm";
import { ModelHub } from "../hub/ModelHub";

/** "105 MB", "4.1 GB". */
export function formatSize(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

const FIT_LABEL = { fits: "fits", tight: "tight", too_big: "too big" } as const;

/** "needs ≈ 240 MB · fits": the estimate from the file's header for the
 *  window set, against the memory free now. */
export function MemoryNote({ memory }: { memory: MemoryEstimate | null }) {
  if (!memory) return null;
  const why = { fits: "Fits in the memory free now, with room to spare", tight: "Fits in the memory free now, with little left for anything else", too_big: "Needs more memory than is free now: close other programs or choose a smaller window" }[memory.fit];
  return (
    <span className={`memory-fit memory-${memory.fit}`} title={`Weights, the window's cache and working buffers. ${why}.`}>
      needs ≈ {formatSize(memory.bytes)} · {FIT_LABEL[memory.fit]}
    </span>
  );
}

interface ShelfProps {
  view: LocalModelsView;
  busy: boolean;
  onDefault: (name: string) => void;
  onRemove: (name: string, label: string) => void;
  onSettings: (s: LocalModelSettings) => void;
}

/** The models with their sizes, the default marked; the window and
 *  threads, with what this machine was fitted to. */
export function LocalShelf({ view, busy, onDefault, onRemove, onSettings }: ShelfProps) {
  const [context, setContext] = useState(String(view.settings.context));
  const [threads, setThreads] = useState(String(view.settings.threads));
  const [unload, setUnload] = useState(String(view.settings.unload_after_minutes));
  const [gpu, setGpu] = useState(String(view.settings.gpu_layers));
  const s = view.settings;
  const form = { context: Number(context), threads: Number(threads), unload_after_minutes: Number(unload), gpu_layers: Number(gpu) };
  const changed = (Object.keys(form) as (keyof LocalModelSettings)[]).some((k) => form[k] !== s[k]);
  const fitted = view.defaults;
  const isFitted = (Object.keys(fitted) as (keyof LocalModelSettings)[]).every((k) => fitted[k] === s[k]);
  return (
    <>
      {view.models.length === 0 ? <p className="hint">No model yet: import a .gguf file, or put one in <code>{view.dir}</code>.</p> : null}
      <ul className="providers">
        {view.models.map((m) => (
          <li key={m.name}>
            <div>
              <strong>{m.label}</strong>
              {m.default ? <span className="badge">default</span> : null}
              <small>{m.name} · {formatSize(m.bytes)}{m.bundled ? " · ships with Braid" : ""}{m.linked ? " · run in place" : ""}</small>
              <MemoryNote memory={m.memory} />
              <Unreadable why={m.unreadable} />
            </div>
            <div className="actions">
              {!m.default && !m.unreadable ? <button type="button" disabled={busy} onClick={() => onDefault(m.name)}>Make default</button> : null}
              {!m.bundled ? (
                <button type="button" className="danger" disabled={busy} onClick={() => onRemove(m.name, m.label)}>Remove</button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      <form
        className="local-settings"
        aria-label="How the built-in model runs"
        onSubmit={(e) => {
          e.preventDefault();
          onSettings(form);
        }}
      >
        <label>
          Window (tokens)
          <input type="number" min={512} max={131072} step={512} value={context} onChange={(e) => setContext(e.target.value)} />
        </label>
        <label>
          Threads
          <input type="number" min={1} max={view.cores} value={threads} onChange={(e) => setThreads(e.target.value)} />
        </label>
        <label title="The model leaves memory after this many minutes without a question and loads again with the next one. 0 keeps it loaded.">
          Unload after (min)
          <input type="number" min={0} max={1440} value={unload} onChange={(e) => setUnload(e.target.value)} />
        </label>
        {view.gpu ? (
          <label title="Layers run on the GPU; the rest on the CPU. 999: all of them.">
            GPU layers
            <input type="number" min={0} max={999} value={gpu} onChange={(e) => setGpu(e.target.value)} />
          </label>
        ) : null}
        <button type="submit" className="primary" disabled={busy || !changed}>Apply</button>
        <button
          type="button"
          disabled={busy || isFitted}
          onClick={() => {
            setContext(String(fitted.context));
            setThreads(String(fitted.threads));
            setUnload(String(fitted.unload_after_minutes));
            setGpu(String(fitted.gpu_layers));
            onSettings(fitted);
          }}
        >
          Fit to this machine
        </button>
        <small className="hint">
          Fitted here: {fitted.context.toLocaleString("en-US")} tokens and {fitted.threads} of {view.cores} cores. A larger window holds more of the conversation and uses more memory.{view.gpu ? "" : " This build runs on the CPU (see docs/LOCAL-MODELS.md for a GPU build)."}
        </small>
      </form>
    </>
  );
}

/** The built-in model: GGUF files run inside Braid, answering while no
 *  provider is set up. Import (the system's file picker in the window, a
 *  path in the browser), choose the default, remove, tune. */
export function LocalModelsPanel({ backend, available, onChanged }: { backend: Backend; available: boolean; onChanged: () => void }) {
  const confirm = useConfirm();
  const [view, setView] = useState<LocalModelsView | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(available ? null : "This Braid runs no built-in model (it was started with a model server or the echo).");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [path, setPath] = useState("");
  // Asked only of a Braid that keeps built-in models (the others refuse).
  useEffect(() => {
    if (available) backend.listLocalModels().then(setView, (e: Error) => setUnavailable(e.message));
  }, [backend, available]);
  const run = useCallback(
    (what: string, change: Promise<LocalModelsView>) => {
      setBusy(what);
      setError(null);
      return change
        .then((v) => {
          setView(v);
          onChanged();
          return true;
        }, (e: Error) => {
          setError(e.message);
          return false;
        })
        .finally(() => setBusy(null));
    },
    [onChanged],
  );
  const importFrom = (file: string) =>
    void run(`Importing ${file}…`, backend.importLocalModel(file)).then((ok) => ok && setPath(""));
  const pick = backend.pickModelFile?.bind(backend);

  if (unavailable) {
    return (
      <section className="local-models" aria-label="Built-in model">
        <h2>Built-in model</h2>
        <p className="hint">{unavailable}</p>
      </section>
    );
  }
  if (!view) return <section className="local-models" aria-label="Built-in model" aria-busy="true" />;
  return (
    <section className="local-models" aria-label="Built-in model">
      <h2>Built-in model</h2>
      <p className="hint">
        Runs on this machine, offline, and answers while no provider is set up. The starter is tiny; a larger model answers far better: get one below, or import a GGUF file.
      </p>
      <LocalShelf
        key={JSON.stringify(view.settings)}
        view={view}
        busy={busy !== null}
        onDefault={(name) => void run("Switching…", backend.setDefaultLocalModel(name))}
        onRemove={(name, label) => {
          const linked = view.models.find((m) => m.name === name)?.linked;
          const ask = linked
            ? { title: "Remove the model from the list?", message: `Remove ${label} from Braid's models? The file stays where its app keeps it.`, confirm: "Remove", danger: false }
            : { title: "Delete the model?", message: `Delete ${label} (${name}) from the models folder?`, confirm: "Delete", danger: true };
          void confirm(ask).then((yes) => yes && run("Removing…", backend.removeLocalModel(name)));
        }}
        onSettings={(s) => void run("Saving…", backend.setLocalModelSettings(s))}
      />
      <FoundModels view={view} busy={busy !== null} onLink={(path, name) => void run(`Linking ${name}…`, backend.linkLocalModel(path))} />
      <form className="local-import" onSubmit={(e) => (e.preventDefault(), path.trim() && importFrom(path.trim()))}>
        <input aria-label="Path of a .gguf file to import" placeholder="/path/to/model.gguf" value={path} onChange={(e) => setPath(e.target.value)} />
        <button type="submit" disabled={busy !== null || !path.trim()}>Import</button>
        {pick ? (
          <button type="button" disabled={busy !== null} onClick={() => void pick().then((f) => f && importFrom(f))}>Choose a file…</button>
        ) : null}
      </form>
      {busy ? <p role="status">{busy}</p> : null}
      {error ? <div className="field-error" role="alert">{error}</div> : null}
      <ModelHub
        backend={backend}
        onLanded={() => {
          void backend.listLocalModels().then(setView, () => {});
          onChanged();
        }}
      />
    </section>
  );
}

/** Why a model file cannot be used (its header, read as hostile, says):
 *  shown instead of the actions that would load it. */
function Unreadable({ why }: { why: string | null | undefined }) {
  if (!why) return null;
  return (
    <span className="badge warn unreadable" role="note" title={why}>
      cannot be used: {why.replace(/^.* is not a GGUF model Braid can read: /, "")}
    </span>
  );
}

/** Models other apps on this machine downloaded (LM Studio, Jan, Ollama),
 *  offered to run in place: a link, never a copy. */
export function FoundModels({ view, busy, onLink }: { view: LocalModelsView; busy: boolean; onLink: (path: string, name: string) => void }) {
  const found = view.found.filter((f) => !f.on_shelf);
  if (found.length === 0) return null;
  return (
    <section aria-label="Models from other apps">
      <h3>Found on this machine</h3>
      <p className="hint">Models other apps downloaded. Braid can run them where they are: nothing is copied.</p>
      <ul className="providers">
        {found.map((f) => (
          <li key={f.path}>
            <div>
              <strong>{f.name.replace(/\.gguf$/i, "")}</strong>
              <span className="badge">{f.app}</span>
              <small title={f.path}>{formatSize(f.bytes)} · {f.path}</small>
              <MemoryNote memory={f.memory} />
              <Unreadable why={f.unreadable} />
            </div>
            <div className="actions">
              {!f.unreadable ? <button type="button" disabled={busy} onClick={() => onLink(f.path, f.name)}>Use in place</button> : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
