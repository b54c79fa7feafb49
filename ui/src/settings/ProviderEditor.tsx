import { useState } from "react";
import type { Backend } from "../backend/types";
import type { ModelSummary, ProviderKind, SettingsView } from "../generated/protocol";
import { KINDS, PRESETS, keyLabel, presetOf, toInput, validate, withKind, withPreset, type ProviderForm } from "./form";
import { counted } from "../counted";

interface Props {
  backend: Backend;
  initial: ProviderForm;
  /** Saved: the settings, and what connecting to it found, in words. */
  onSaved: (view: SettingsView, connection: string) => void;
  onClose: () => void;
}

/** What a connection test found, in a line. */
export function connectionLine(name: string, models: ModelSummary[] | null, failure: string | null): string {
  if (failure !== null) return `Saved ${name}, but the connection failed: ${failure}`;
  const listed = models ?? [];
  const some = listed.slice(0, 4).map((m) => m.id).join(", ");
  return `Saved ${name}: connected, ${counted(listed.length, "model")}${some ? ` (${some}${listed.length > 4 ? ", …" : ""})` : ""}.`;
}

type Test = { state: "idle" } | { state: "testing" } | { state: "ok"; models: ModelSummary[] } | { state: "failed"; message: string };

/** Add or edit one provider. The key field is write-only: a stored key is
 *  never shown, only where it is kept. */
export function ProviderEditor({ backend, initial, onSaved, onClose }: Props) {
  const [form, setForm] = useState(initial);
  const [test, setTest] = useState<Test>({ state: "idle" });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const errors = shown ? validate(form) : {};
  const set = (patch: Partial<ProviderForm>) => setForm((f) => ({ ...f, ...patch }));

  const runTest = () => {
    setShown(true);
    if (Object.keys(validate(form)).length) return;
    setTest({ state: "testing" });
    backend.testProvider(toInput(form)).then(
      (models) => {
        setTest({ state: "ok", models });
        if (!form.defaultModel && models.length) set({ defaultModel: models[0].id });
      },
      (e: Error) => setTest({ state: "failed", message: e.message }),
    );
  };
  const save = () => {
    setShown(true);
    if (Object.keys(validate(form)).length) return;
    setSaving(true);
    setError(null);
    const input = toInput(form);
    // Saved, then tried: the form closes with what the connection found.
    backend.saveProvider(input).then(
      (view) =>
        backend.testProvider(input).then(
          (models) => onSaved(view, connectionLine(input.name, models, null)),
          (e: Error) => onSaved(view, connectionLine(input.name, null, e.message)),
        ),
      (e: Error) => {
        setSaving(false);
        setError(e.message);
      },
    );
  };
  const preset = presetOf(form);
  const models = test.state === "ok" ? test.models : [];

  return (
    <form className="provider-editor" aria-label={form.id ? `Edit ${initial.name}` : "Add a provider"} onSubmit={(e) => { e.preventDefault(); save(); }}>
      {form.id === null ? (
        <div className="presets" role="group" aria-label="Start from">
          <span>Start from</span>
          {PRESETS.map((p) => (
            <button key={p.id} type="button" aria-pressed={preset?.id === p.id} onClick={() => { setForm((f) => withPreset(f, p)); setTest({ state: "idle" }); }}>
              {p.label}
            </button>
          ))}
        </div>
      ) : null}
      <label>
        Kind
        <select value={form.kind} disabled={form.id !== null} onChange={(e) => setForm(withKind(form, e.target.value as ProviderKind))}>
          {KINDS.map((k) => <option key={k.kind} value={k.kind}>{k.label}</option>)}
        </select>
      </label>
      <label>
        Name
        <input value={form.name} onChange={(e) => set({ name: e.target.value })} aria-invalid={!!errors.name} placeholder="e.g. Ollama" />
        {errors.name ? <small className="field-error">{errors.name}</small> : null}
      </label>
      <label>
        Base URL
        <input value={form.baseUrl} onChange={(e) => set({ baseUrl: e.target.value })} aria-invalid={!!errors.baseUrl} spellCheck={false} placeholder="http://127.0.0.1:11434/v1" />
        {errors.baseUrl ? <small className="field-error">{errors.baseUrl}</small> : null}
      </label>
      <label>
        API key
        <input
          type="password"
          autoComplete="off"
          value={form.apiKey}
          placeholder={form.storedKey && !form.clearKey ? "•••••••• (leave empty to keep)" : preset?.needsKey ? `Needed for ${preset.name}` : "Not needed for local servers"}
          onChange={(e) => set({ apiKey: e.target.value })}
          aria-invalid={!!errors.apiKey}
        />
        <small>{keyLabel(form.storedKey)}{form.storedKey === "file" ? " (no keychain service is running)" : ""}</small>
        {form.storedKey && form.storedKey !== "env" ? (
          <small>
            <label className="inline"><input type="checkbox" checked={form.clearKey} onChange={(e) => set({ clearKey: e.target.checked })} /> Remove the stored key</label>
          </small>
        ) : null}
        {errors.apiKey ? <small className="field-error">{errors.apiKey}</small> : null}
      </label>
      <label>
        Default model
        <input list="provider-models" value={form.defaultModel} onChange={(e) => set({ defaultModel: e.target.value })} placeholder="Test the connection to list the models" spellCheck={false} />
        <datalist id="provider-models">{models.map((m) => <option key={m.id} value={m.id} />)}</datalist>
      </label>
      <div className="test-result" role="status">
        {test.state === "testing" ? "Connecting…" : null}
        {test.state === "ok" ? `Connected: ${counted(test.models.length, "model")} (${test.models.slice(0, 4).map((m) => m.id).join(", ")}${test.models.length > 4 ? ", …" : ""})` : null}
        {test.state === "failed" ? <span className="field-error">Connection failed: {test.message}</span> : null}
      </div>
      {error ? <div className="field-error" role="alert">{error}</div> : null}
      <div className="actions">
        <button type="button" onClick={runTest} disabled={test.state === "testing"}>Test connection</button>
        <button type="submit" className="primary" disabled={saving}>{saving ? "Saving and connecting…" : "Save"}</button>
        <button type="button" onClick={onClose}>Cancel</button>
      </div>
    </form>
  );
}
