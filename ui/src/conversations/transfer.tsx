import { useRef, useState } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, ContextSummary, ExportFormat } from "../generated/protocol";
import { ImportIcon } from "../icons";
import { Tip } from "../Tip";

export type ExportChoice = { format: ExportFormat; withSecrets: boolean };

/** What the row menu offers, in its words. An export leaves secrets as
 *  placeholders; the last entry, for a backup of one's own, keeps them. */
export const EXPORTS: ({ label: string } & ExportChoice)[] = [
  { label: "Export as Braid JSON", format: { kind: "json" }, withSecrets: false },
  { label: "Export as Markdown", format: { kind: "markdown", all_branches: false }, withSecrets: false },
  { label: "Export all branches as Markdown", format: { kind: "markdown", all_branches: true }, withSecrets: false },
  { label: "Export as Braid JSON, secrets included", format: { kind: "json" }, withSecrets: true },
];

/** Saves an export: the desktop's own save dialog, or a download in a
 *  browser. Answered by where it went, in words; null when cancelled. */
export async function saveExport(backend: Backend, id: ContextId, { format, withSecrets }: ExportChoice): Promise<string | null> {
  if (backend.saveExport) {
    const path = await backend.saveExport(id, format, withSecrets);
    return path ? `Exported to ${path}` : null;
  }
  const file = await backend.exportContext(id, format, withSecrets);
  downloadText(file.file_name, file.text, file.media_type);
  return `Downloaded ${file.file_name}`;
}

/** A browser download of `text` as `name`. */
export function downloadText(name: string, text: string, type = "text/markdown") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own copy once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Import: a Braid export, a Claude Code session or ChatGPT's export
 *  becomes new conversations; a file that is none of them is refused with
 *  the reason, and nothing changes. */
export function ImportButton({ onImport, pick }: { onImport: (text: string) => Promise<ContextSummary[]>; pick?: () => Promise<{ name: string; text: string } | null> }) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const chosen = async (file: { name: string; text: () => Promise<string> } | undefined) => {
    if (!file) return;
    setError(null);
    try {
      await onImport(await file.text());
    } catch (e) {
      setError(`${file.name}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      // The same file may be chosen again after a fix.
      if (input.current) input.current.value = "";
    }
  };
  // The window opens its own dialog; a browser uses the file input.
  const open = () => {
    if (!pick) return input.current?.click();
    pick().then(
      (f) => f && void chosen({ name: f.name, text: () => Promise.resolve(f.text) }),
      (e: Error) => setError(e.message),
    );
  };
  return (
    <>
      <Tip label="Import conversations: a Braid export, a Claude Code session (.jsonl) or ChatGPT's conversations.json" side="top">
        <button type="button" className="icon-button" aria-label="Import a conversation" onClick={open}><ImportIcon /></button>
      </Tip>
      <input ref={input} type="file" accept=".json,.jsonl,application/json" hidden aria-label="Conversation file to import" onChange={(e) => void chosen(e.target.files?.[0])} />
      {error ? <small className="field-error import-error" role="alert">{error}</small> : null}
    </>
  );
}
