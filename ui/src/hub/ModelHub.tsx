import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { Download, HubModel, HubRepo, Recommendations, Recommended } from "../generated/protocol";
import { useConfirm } from "../confirm";
import { formatSize, MemoryNote } from "../settings/LocalModelsPanel";
import { DownloadList } from "./Downloads";
import { useDownloads } from "./useDownloads";

const FIT = { fits: "fits", tight: "tight", too_big: "too big" } as const;

/** "12k", "3.4M". */
export function count(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

/** The models chosen for this machine, its pick first in words. */
export function RecommendedList({ recs, onDownload, busy }: { recs: Recommendations; onDownload: (r: Recommended) => void; busy: boolean }) {
  const m = recs.machine;
  return (
    <>
      <p className="hint">
        For this machine ({formatSize(m.memory)} memory, {formatSize(m.available)} free, {m.cores} cores{m.gpu_memory ? `, a GPU with ${formatSize(m.gpu_memory)}` : ""}):
      </p>
      <ul className="providers recommended">
        {recs.models.map((r) => (
          <li key={r.repo} data-pick={r.pick || undefined}>
            <div>
              <strong>{r.label}</strong>
              {r.pick ? <span className="badge">the pick here</span> : null}
              <small>
                {r.about} · {formatSize(r.bytes)} · {FIT[r.fit]}
                {r.slow ? " · slow on these cores" : ""}
              </small>
            </div>
            <div className="actions">
              {r.on_shelf ? <small>on the shelf</small> : <button type="button" disabled={busy} onClick={() => onDownload(r)}>Download</button>}
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Download, or how far its download is, or that it is on the shelf. */
function FileAction({ repo, file, label, onShelf, downloads, onDownload }: { repo: string; file: string; label: string; onShelf: boolean; downloads: Download[]; onDownload: (repo: string, file: string) => void }) {
  const mine = downloads.find((d) => d.repo === repo && d.file === file);
  if (mine) return <small>{mine.state === "done" ? "on the shelf" : `${Math.floor((100 * mine.done) / (mine.bytes || 1))}% · ${mine.state}`}</small>;
  if (onShelf) return <small>on the shelf</small>;
  return <button type="button" onClick={() => onDownload(repo, file)}>Download {label}</button>;
}

/** A search result; opened, its files with their memory here. */
function Result({ model, backend, open, onOpen, onDownload, downloads }: { model: HubModel; backend: Backend; open: boolean; onOpen: () => void; onDownload: (repo: string, file: string) => void; downloads: Download[] }) {
  const [repo, setRepo] = useState<HubRepo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open && !repo) backend.hubRepo(model.repo).then(setRepo, (e: Error) => setError(e.message));
  }, [open, repo, backend, model.repo]);
  return (
    <li className="hub-result">
      <div>
        <button type="button" className="link" aria-expanded={open} onClick={onOpen}>{model.repo}</button>
        {model.gated ? <span className="badge" title="Its licence must be accepted on the hub first">gated</span> : null}
        <small>
          ↓ {count(model.downloads)} · ♥ {count(model.likes)}
          {model.licence ? ` · ${model.licence}` : ""}
          {model.updated ? ` · ${model.updated.slice(0, 10)}` : ""}
        </small>
        {open && !repo && !error ? <small role="status">Reading its files…</small> : null}
        {error ? <small className="field-error" role="alert">{error}</small> : null}
        {repo ? (
          <ul className="hub-files" aria-label={`Files of ${model.repo}`}>
            {repo.note ? <li><small>{repo.note}</small></li> : null}
            {repo.files.map((f) => (
              <li key={f.file}>
                <span>{f.quant ?? f.file}</span>
                <small title={f.file}>{formatSize(f.bytes)}</small>
                <MemoryNote memory={f.memory} />
                <FileAction repo={model.repo} file={f.file} label={f.quant ?? ""} onShelf={f.on_shelf} downloads={downloads} onDownload={onDownload} />
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

/** More models: the recommended ones, a search of the hub, and the
 *  downloads, which go on after a restart. */
export function ModelHub({ backend, onLanded }: { backend: Backend; onLanded: () => void }) {
  const confirm = useConfirm();
  const { view, error, act } = useDownloads(backend, onLanded);
  const [recs, setRecs] = useState<Recommendations | null>(null);
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<HubModel[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [endpoint, setEndpoint] = useState<string | null>(null);
  useEffect(() => {
    backend.recommendedModels().then(setRecs, () => setRecs(null));
  }, [backend]);
  const search = () => {
    setSearching(true);
    setSearchError(null);
    backend
      .searchHub(query)
      .then(setResults, (e: Error) => (setResults(null), setSearchError(e.message)))
      .finally(() => setSearching(false));
  };
  const download = (repo: string, file: string) => void act(backend.downloadModel(repo, file, false));
  const shown = endpoint ?? view?.endpoint ?? "";
  return (
    <section className="model-hub" aria-label="Get models">
      <h3>Get models</h3>
      <DownloadList
        downloads={view?.downloads ?? []}
        onPause={(id) => void act(backend.pauseDownload(id))}
        onResume={(id) => void act(backend.resumeDownload(id))}
        onCancel={(d) => {
          if (d.state === "done") return void act(backend.cancelDownload(d.id));
          void confirm({ title: "Cancel the download?", message: `Stop downloading ${d.name} and delete the ${formatSize(d.done)} that came?`, confirm: "Cancel download", cancel: "Keep downloading", danger: true }).then(
            (yes) => yes && act(backend.cancelDownload(d.id)),
          );
        }}
      />
      {error ? <div className="field-error" role="alert">{error}</div> : null}
      {recs ? <RecommendedList recs={recs} busy={false} onDownload={(r) => download(r.repo, r.file)} /> : null}
      <form className="hub-search" role="search" onSubmit={(e) => (e.preventDefault(), search())}>
        <input aria-label="Search the hub for GGUF models" placeholder="qwen2.5 coder, llama 3.2, phi…" value={query} onChange={(e) => setQuery(e.target.value)} />
        <button type="submit" disabled={searching}>{searching ? "Searching…" : "Search"}</button>
      </form>
      {searchError ? <div className="field-error" role="alert">{searchError}</div> : null}
      {results?.length === 0 ? <p className="hint">No GGUF repository matches “{query}”.</p> : null}
      {results?.length ? (
        <ul className="providers hub-results" aria-label="Hub results">
          {results.map((m) => (
            <Result key={m.repo} model={m} backend={backend} open={open === m.repo} onOpen={() => setOpen(open === m.repo ? null : m.repo)} onDownload={download} downloads={view?.downloads ?? []} />
          ))}
        </ul>
      ) : null}
      <form
        className="hub-endpoint"
        onSubmit={(e) => {
          e.preventDefault();
          void act(backend.setHubEndpoint(shown)).then((ok) => ok && setEndpoint(null));
        }}
      >
        <label>
          Hub address
          <input aria-label="Hub address" placeholder="https://huggingface.co" value={shown} onChange={(e) => setEndpoint(e.target.value)} />
        </label>
        <button type="submit" disabled={endpoint === null}>Save</button>
        <small className="hint">Hugging Face, a mirror, or a registry on your network. Empty: Hugging Face.</small>
      </form>
    </section>
  );
}
