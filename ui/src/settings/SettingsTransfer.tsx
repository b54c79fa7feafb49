import { useRef, useState } from "react";
import type { Backend } from "../backend/types";
import type { SettingsView } from "../generated/protocol";
import { copyText } from "../clipboard";
import { downloadText } from "../conversations/transfer";
import { useConfirm } from "../confirm";

/** The settings as a file to keep or take to another machine (providers
 *  without their keys, defaults, your instructions), and such a file
 *  taken in: checked whole first, and asked before it replaces anything. */
export function SettingsTransfer({ backend, onChange }: { backend: Backend; onChange: (v: SettingsView) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [said, setSaid] = useState<{ text: string; error: boolean } | null>(null);
  const confirm = useConfirm();
  const exportIt = () =>
    void backend.exportSettings().then(
      (text) => {
        downloadText("braid-settings.json", text, "application/json");
        void copyText(text);
        setSaid({ text: "Exported braid-settings.json (also copied): providers without their keys, defaults and your instructions.", error: false });
      },
      (e: Error) => setSaid({ text: e.message, error: true }),
    );
  const take = async (name: string, text: string) => {
    const yes = await confirm({ title: "Import these settings?", message: `Replace the providers, defaults and instructions with those in ${name}? Stored keys stay; a provider new here needs its key.`, confirm: "Import" });
    if (!yes) return;
    backend.importSettings(text).then(
      (v) => {
        onChange(v);
        setSaid({ text: `Imported ${name}: ${v.providers.length} providers.`, error: false });
      },
      (e: Error) => setSaid({ text: `${name}: ${e.message}`, error: true }),
    );
  };
  const importIt = () => {
    if (!backend.openImport) return input.current?.click();
    backend.openImport().then((f) => f && void take(f.name, f.text), (e: Error) => setSaid({ text: e.message, error: true }));
  };
  return (
    <div className="settings-transfer">
      <button type="button" onClick={exportIt}>Export settings</button>
      <button type="button" onClick={importIt}>Import settings…</button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        aria-label="Settings file to import"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void f.text().then((t) => take(f.name, t));
          e.target.value = "";
        }}
      />
      {said ? <small className={said.error ? "field-error" : "hint"} role={said.error ? "alert" : "status"} data-testid="settings-transfer">{said.text}</small> : null}
    </div>
  );
}
