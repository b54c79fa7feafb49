import { useState } from "react";
import type { ContextId, ContextSummary } from "../generated/protocol";

interface Props {
  items: ContextSummary[];
  selected: ContextId | null;
  onSelect: (id: ContextId) => void;
  onCreate: () => void;
  onDelete: (c: ContextSummary) => void;
}

/** Most recent first (the server's order), searchable by title. */
export function ConversationList({ items, selected, onSelect, onCreate, onDelete }: Props) {
  const [query, setQuery] = useState("");
  const shown = items.filter((c) => c.title.toLowerCase().includes(query.trim().toLowerCase()));
  return (
    <nav className="conversations">
      <button type="button" onClick={onCreate}>New conversation</button>
      <input aria-label="Search conversations" placeholder="Search" value={query} onChange={(e) => setQuery(e.target.value)} />
      <ul>
        {shown.map((c) => (
          <li key={c.id} className={c.id === selected ? "selected" : ""}>
            <button type="button" className="open" onClick={() => onSelect(c.id)}>
              {c.title} <small>{c.message_count} messages</small>
            </button>
            <button type="button" className="delete" aria-label={`Delete ${c.title}`} onClick={() => onDelete(c)}>×</button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
