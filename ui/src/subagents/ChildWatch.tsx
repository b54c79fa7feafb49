// A sub-agent's conversation beside its parent, live: what it has said
// and done so far (its answer streaming in as it is written), how long it
// has run, its turns, its tokens and its last tool call. Read-only: the
// child's approvals are asked in the parent; "Open" leads into it.
import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, Message } from "../generated/protocol";
import { useChatModel } from "../chat/useChatModel";
import { transcript } from "../chat/transcript";
import { ItemView } from "../chat/ItemView";
import { counted } from "../counted";
import { describe } from "../chat/describe";

/** Turns, tokens and the last tool call of a child's messages. */
export function childStats(messages: Message[]): { turns: number; tokens: number; lastCall: string | null } {
  let turns = 0;
  let tokens = 0;
  let lastCall: string | null = null;
  for (const m of messages) {
    if (m.body.type === "tool_request" || (m.body.type === "text" && m.body.role === "assistant")) turns += 1;
    if (m.meta?.usage) tokens += m.meta.usage.prompt_tokens + m.meta.usage.completion_tokens;
    if (m.body.type === "tool_request" && m.body.calls.length) lastCall = m.body.calls[m.body.calls.length - 1].name;
  }
  return { turns, tokens, lastCall };
}

export function ChildWatch({ backend, id, name, onOpen, onClose }: { backend: Backend; id: ContextId; name: string; onOpen?: () => void; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const { model } = useChatModel(backend, id, undefined, setError);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const messages = model.snapshot?.messages ?? [];
  const stats = childStats(messages);
  const started = model.snapshot?.summary.created_at ?? now;
  const drafts = Object.entries(model.drafts);
  return (
    <aside className="child-watch" aria-label={`Sub-agent ${name}, live`}>
      <header>
        <strong>{name}</strong>
        <button type="button" className="icon" aria-label={`Close ${name}'s live view`} onClick={onClose}>×</button>
      </header>
      <p className="child-stats" data-testid="child-stats">
        {describe(model.status, now)} · {Math.max(0, Math.round((now - started) / 1000))} s · {counted(stats.turns, "turn")} · {counted(stats.tokens, "token")}
        {stats.lastCall ? ` · last call ${stats.lastCall}` : ""}
      </p>
      {error ? <p className="field-error" role="alert">{error}</p> : null}
      <div className="child-messages">
        {transcript(messages, false).map((item) => <ItemView key={item.key} item={item} />)}
        {drafts.map(([key, text]) => (
          <div key={key} className="message assistant streaming" data-testid="child-draft">
            <span className="who">assistant</span>
            <div className="text">{text}</div>
          </div>
        ))}
      </div>
      {onOpen ? <button type="button" className="link" onClick={onOpen}>Open {name}&apos;s conversation</button> : null}
    </aside>
  );
}
