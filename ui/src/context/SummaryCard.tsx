import { useState } from "react";
import { counted } from "../counted";
import { copyText } from "../clipboard";
import { downloadText } from "../conversations/transfer";
import { Markdown } from "../markdown/Markdown";
import type { Item } from "../chat/transcript";

/** What can be done to a summary: its text changed, or taken back (the
 *  messages it stood for are sent again). */
export interface SummaryActions {
  edit: (id: number, text: string) => void;
  undo: (id: number) => void;
}

type SummaryItem = Extract<Item, { kind: "summary" }>;

/** A summary where the messages it replaced were: open to read it, edit
 *  it, export it, or take it back. The originals stay in the history. */
export function SummaryCard({ item, actions }: { item: SummaryItem; actions?: SummaryActions }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const exportIt = () => {
    const text = `# Summary of ${counted(item.count, "message")}\n\n${item.text}\n`;
    void copyText(text).then((ok) => setNote(ok ? "Copied as Markdown" : "Saved as a file"));
    downloadText(`summary-${item.id}.md`, text);
  };
  return (
    <details className={`summary-marker${item.inForce ? "" : " undone"}`} data-testid="summary" open={editing !== null || undefined}>
      <summary>
        {counted(item.count, "earlier message")} summarised{item.inForce ? " — the model reads this instead" : " — taken back: the messages are sent again"}
      </summary>
      {editing !== null ? (
        <div className="summary-edit">
          <textarea aria-label="Summary text" autoFocus value={editing} rows={Math.min(16, editing.split("\n").length + 2)} onChange={(e) => setEditing(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") setEditing(null);
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && editing.trim() && actions) {
                actions.edit(item.id, editing);
                setEditing(null);
              }
            }} />
          <div className="edit-buttons">
            <button type="button" onClick={() => setEditing(null)}>Cancel</button>
            <button type="button" className="primary" disabled={!editing.trim()} title="Ctrl+Enter" onClick={() => { actions?.edit(item.id, editing); setEditing(null); }}>Save summary</button>
          </div>
        </div>
      ) : (
        <Markdown source={item.text} />
      )}
      <div className="summary-actions">
        {actions && item.inForce && editing === null ? <button type="button" className="link" onClick={() => setEditing(item.text)}>Edit</button> : null}
        <button type="button" className="link" onClick={exportIt} title="Copy it as Markdown and download it">Export</button>
        {actions && item.inForce ? <button type="button" className="link" onClick={() => actions.undo(item.id)} title="The messages it stood for are sent again; the summary stays in the history">Undo summary</button> : null}
        {note ? <span role="status" className="hint">{note}</span> : null}
      </div>
    </details>
  );
}
