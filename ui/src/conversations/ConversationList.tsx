import { useState, type KeyboardEvent } from "react";
import { FolderIcon } from "../icons";
import type { ContextId, ContextSummary } from "../generated/protocol";

interface Props {
  items: ContextSummary[];
  selected: ContextId | null;
  onSelect: (id: ContextId) => void;
  onCreate: () => void;
  /** A new conversation working in `folder`; the promise fails with the reason. */
  onCreateIn: (folder: string) => Promise<unknown>;
  onDelete: (c: ContextSummary) => void;
  onRename: (c: ContextSummary, title: string) => Promise<unknown>;
  onSettings: () => void;
  /** The keyboard shortcuts. */
  onHelp: () => void;
}

function RenameField({ c, onDone, onRename }: { c: ContextSummary; onDone: () => void; onRename: Props["onRename"] }) {
  const [title, setTitle] = useState(c.title);
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    if (title.trim() === c.title) return onDone();
    onRename(c, title).then(onDone, (e: Error) => setError(e.message));
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") commit();
    else if (e.key === "Escape") onDone();
  };
  return (
    <div className="rename">
      <input aria-label={`New title for ${c.title}`} autoFocus value={title} onChange={(e) => setTitle(e.target.value)} onKeyDown={onKey} onBlur={commit} />
      {error ? <small className="field-error" role="alert">{error}</small> : null}
    </div>
  );
}

/** Most recent first (the server's order), searchable by title; double-click
 *  or F2 renames. */
function FolderForm({ onCreateIn, onDone }: { onCreateIn: Props["onCreateIn"]; onDone: () => void }) {
  const [folder, setFolder] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = () => {
    if (!folder.trim()) return setError("Enter the folder's full path.");
    onCreateIn(folder.trim()).then(onDone, (e: Error) => setError(e.message));
  };
  return (
    <form className="folder-form" onSubmit={(e) => (e.preventDefault(), create())}>
      <input aria-label="Workspace folder" placeholder="/path/to/project" value={folder} autoFocus onChange={(e) => setFolder(e.target.value)} onKeyDown={(e) => e.key === "Escape" && onDone()} />
      <div className="actions">
        <button type="submit" className="primary">Create</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
      {error ? <small className="field-error" role="alert">{error}</small> : null}
    </form>
  );
}

export function ConversationList({ items, selected, onSelect, onCreate, onCreateIn, onDelete, onRename, onSettings, onHelp }: Props) {
  const [query, setQuery] = useState("");
  const [choosing, setChoosing] = useState(false);
  const [renaming, setRenaming] = useState<ContextId | null>(null);
  const shown = items.filter((c) => c.title.toLowerCase().includes(query.trim().toLowerCase()));
  return (
    <nav className="conversations">
      <div className="new-row">
        <button type="button" className="primary" onClick={onCreate} title="Ctrl+Shift+O">New conversation</button>
        <button type="button" className="icon-button" aria-label="New conversation in a folder" title="New conversation working in a folder you choose" onClick={() => setChoosing((c) => !c)}><FolderIcon /></button>
      </div>
      {choosing ? <FolderForm onCreateIn={onCreateIn} onDone={() => setChoosing(false)} /> : null}
      <input aria-label="Search conversations" placeholder="Search" value={query} onChange={(e) => setQuery(e.target.value)} />
      <ul>
        {shown.map((c) => (
          <li key={c.id} className={c.id === selected ? "selected" : ""}>
            {renaming === c.id ? (
              <RenameField c={c} onRename={onRename} onDone={() => setRenaming(null)} />
            ) : (
              <>
                <button
                  type="button"
                  className="open"
                  onClick={() => onSelect(c.id)}
                  onDoubleClick={() => setRenaming(c.id)}
                  onKeyDown={(e) => e.key === "F2" && setRenaming(c.id)}
                >
                  {c.title} <small>{c.message_count} messages</small>
                  <small className="folder" title={c.working_dir}>{c.working_dir.split("/").filter(Boolean).pop() ?? "/"}</small>
                </button>
                <button type="button" className="icon" aria-label={`Rename ${c.title}`} onClick={() => setRenaming(c.id)}>✎</button>
                <button type="button" className="icon delete" aria-label={`Delete ${c.title}`} onClick={() => onDelete(c)}>×</button>
              </>
            )}
          </li>
        ))}
        {items.length > 0 && shown.length === 0 ? <li className="hint">No title matches “{query}”.</li> : null}
      </ul>
      <div className="sidebar-foot">
        <button type="button" className="settings-button" onClick={onSettings} title="Ctrl+,">Settings</button>
        <button type="button" className="icon-button" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (Ctrl+/)" onClick={onHelp}>?</button>
      </div>
    </nav>
  );
}
