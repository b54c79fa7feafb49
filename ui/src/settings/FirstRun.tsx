import { useCallback, useEffect, useState, type ReactNode } from "react";
import type { Backend } from "../backend/types";
import type { LocalServer, SettingsView } from "../generated/protocol";

interface Props {
  backend: Backend;
  onConfigured: (view: SettingsView) => void;
  onAddProvider: () => void;
  /** The offer of a model to download and run inside Braid, where it keeps built-in models. */
  builtIn?: ReactNode;
}

/** Shown while no provider is set up: offers the model servers running on
 *  this machine, or the settings form. */
export function FirstRun({ backend, onConfigured, onAddProvider, builtIn }: Props) {
  const [servers, setServers] = useState<LocalServer[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const detect = useCallback(() => {
    setServers(null);
    backend.detectLocalServers().then(setServers, (e: Error) => {
      setServers([]);
      setError(e.message);
    });
  }, [backend]);
  useEffect(detect, [detect]);

  const use = (s: LocalServer) =>
    backend
      .saveProvider({ id: null, kind: "open_ai_compatible", name: `Local ${s.name}`, base_url: s.base_url, default_model: s.models[0] ?? null, key: { action: "keep" } })
      .then(onConfigured, (e: Error) => setError(e.message));

  return (
    <section className="first-run" aria-label="Welcome">
      <h1>Welcome to Braid</h1>
      <p>Connect a model to start. Keys are stored in your system keychain and never shown again.</p>
      <h2>On this machine</h2>
      {servers === null ? <p role="status">Looking for local model servers (llama.cpp, Ollama, LM Studio)…</p> : null}
      {servers?.length === 0 ? <p>No local server found on the usual ports (8089, 8080, 11434, 1234).</p> : null}
      <ul>
        {servers?.map((s) => (
          <li key={s.base_url}>
            <button type="button" className="primary" onClick={() => void use(s)}>
              Use {s.name} at {s.base_url}
            </button>
            <small> {s.models.length ? s.models.join(", ") : "lists no models"}</small>
          </li>
        ))}
      </ul>
      {builtIn ? <p>{builtIn}</p> : null}
      <div className="actions">
        <button type="button" onClick={detect}>Look again</button>
        <button type="button" onClick={onAddProvider}>Add a provider (OpenAI, Anthropic, Gemini, …)</button>
      </div>
      {error ? <div className="field-error" role="alert">{error}</div> : null}
    </section>
  );
}
