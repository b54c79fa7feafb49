import { useCallback, useEffect, useMemo, useState } from "react";
import { connect } from "./backend";
import { ChatView } from "./chat/ChatView";
import { ConversationList } from "./conversations/ConversationList";
import type { ContextId, ContextSummary } from "./generated/protocol";

export function App() {
  const backend = useMemo(connect, []);
  const [items, setItems] = useState<ContextSummary[]>([]);
  const [selected, setSelected] = useState<ContextId | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(
    () => backend.listContexts().then(setItems, (e) => setError(`Cannot reach Braid: ${e.message}`)),
    [backend],
  );
  useEffect(() => void refresh(), [refresh]);

  const create = () =>
    backend.createContext().then((c) => {
      setSelected(c.id);
      return refresh();
    }, (e) => setError(e.message));
  const remove = (c: ContextSummary) => {
    if (!window.confirm(`Delete "${c.title}" and all its messages?`)) return;
    backend.deleteContext(c.id).then(() => {
      if (selected === c.id) setSelected(null);
      return refresh();
    }, (e) => setError(e.message));
  };

  return (
    <main className="app">
      <ConversationList items={items} selected={selected} onSelect={setSelected} onCreate={create} onDelete={remove} />
      {error ? <div className="error" role="alert">{error}</div> : null}
      {selected ? <ChatView key={selected} backend={backend} id={selected} onActivity={refresh} /> : <p className="empty">Start a new conversation or pick one.</p>}
    </main>
  );
}
