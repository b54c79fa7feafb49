import { useCallback, useEffect, useRef, useState } from "react";
import type { Backend } from "../backend/types";
import type { SettingsView } from "../generated/protocol";
import { formFromView, keyLabel, newForm, type ProviderForm } from "./form";
import { LocalModelsPanel } from "./LocalModelsPanel";
import { McpPanel } from "./McpPanel";
import { CheckpointsPanel } from "./CheckpointsPanel";
import { ConversationDefaultsPanel } from "./ConversationDefaultsPanel";
import { InstructionsPanel } from "./InstructionsPanel";
import { NotificationsSetting } from "./NotificationsSetting";
import { SettingsTransfer } from "./SettingsTransfer";
import { ProviderEditor } from "./ProviderEditor";
import { useConfirm } from "../confirm";

interface Props {
  backend: Backend;
  settings: SettingsView;
  onChange: (view: SettingsView) => void;
  onClose: () => void;
  /** Open straight on this form (e.g. from the first-run screen). */
  start?: ProviderForm;
}

/** Providers (add, edit, remove, choose the default), what new
 *  conversations start with, the built-in model,
 *  MCP servers and how long checkpoints are kept. Esc closes. */
export function SettingsPanel({ backend, settings, onChange, onClose, start }: Props) {
  const confirm = useConfirm();
  const [editing, setEditing] = useState<ProviderForm | null>(start ?? null);
  const [error, setError] = useState<string | null>(null);
  /** What the last save's connection found. */
  const [saved, setSaved] = useState<string | null>(null);
  // The focus goes into the panel when it opens (unless a form in it took
  // it) and back where it was when it closes.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    if (!section.current?.contains(document.activeElement)) section.current?.focus();
    return () => before?.focus?.();
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  // A change that went through clears the last refusal.
  const changed = useCallback((v: SettingsView) => {
    setError(null);
    onChange(v);
  }, [onChange]);
  const act = (p: Promise<SettingsView>) => p.then(onChange, (e: Error) => setError(e.message));
  // The built-in model's label (what answers without a provider) follows its shelf.
  const refresh = useCallback(() => void backend.getSettings().then(onChange, (e: Error) => setError(e.message)), [backend, onChange]);

  return (
    <div className="overlay">
      <section ref={section} className="settings" role="dialog" aria-modal="true" aria-label="Settings" tabIndex={-1}>
        <header>
          <h2>Providers</h2>
          <button type="button" aria-label="Close settings" onClick={onClose}>×</button>
        </header>
        {settings.providers.length === 0 ? (
          <p className="hint">{settings.fallback ? `No provider yet: ${settings.fallback} answers.` : "No provider yet. Add one to start chatting."}</p>
        ) : null}
        <ul className="providers">
          {settings.providers.map((p) => (
            <li key={p.id}>
              <div>
                <strong>{p.name}</strong>
                {settings.default_provider === p.id ? <span className="badge">default</span> : null}
                <small>{p.base_url} · {p.default_model ?? "no default model"} · {keyLabel(p.key)}</small>
              </div>
              <div className="actions">
                {settings.default_provider !== p.id ? <button type="button" onClick={() => act(backend.setDefaultProvider(p.id))}>Make default</button> : null}
                <button type="button" onClick={() => setEditing(formFromView(p))}>Edit</button>
                <button
                  type="button"
                  className="danger"
                  onClick={() => void confirm({ title: "Remove the provider?", message: `Remove ${p.name} and its stored key?`, confirm: "Remove", danger: true }).then((yes) => { if (yes) void act(backend.removeProvider(p.id)); })}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
        {error ? <div className="field-error" role="alert">{error}</div> : null}
        {saved ? <p className="hint" role="status" data-testid="provider-saved">{saved}</p> : null}
        {editing ? (
          <ProviderEditor
            key={editing.id ?? "new"}
            backend={backend}
            initial={editing}
            onSaved={(v, connection) => {
              setEditing(null);
              setSaved(connection);
              onChange(v);
            }}
            onClose={() => setEditing(null)}
          />
        ) : (
          <button type="button" className="primary" onClick={() => { setSaved(null); setEditing(newForm()); }}>Add provider</button>
        )}
        <InstructionsPanel backend={backend} settings={settings} onChange={changed} onError={(e) => setError(e.message)} />
        <ConversationDefaultsPanel backend={backend} settings={settings} onChange={changed} onError={(e) => setError(e.message)} />
        <NotificationsSetting />
        <LocalModelsPanel backend={backend} available={settings.built_in_models} onChanged={refresh} />
        <McpPanel backend={backend} />
        <CheckpointsPanel backend={backend} />
        <SettingsTransfer backend={backend} onChange={onChange} />
      </section>
    </div>
  );
}
