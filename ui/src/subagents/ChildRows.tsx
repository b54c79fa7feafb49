// The children of one `spawn_agents` call on its tool card: each task's
// name, what it is doing or how it ended, and a way into its conversation.
import { useContext, useEffect, useState } from "react";
import { childRows } from "./children";
import { SubAgents } from "./SubAgents";

export function ChildRows({ callId }: { callId: string }) {
  const { live, states, stored, open, stop, watch } = useContext(SubAgents);
  const [now, setNow] = useState(() => Date.now());
  const running = live?.call_id === callId;
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [running]);
  const rows = childRows(callId, live, states, stored, now);
  if (rows.length === 0) return null;
  return (
    <ul className="child-rows" aria-label="Sub-agents" data-testid="sub-agents">
      {rows.map((r) => (
        <li key={r.name} className={r.ended ? `child-${r.ended}` : undefined}>
          <span className="child-name">{r.name}</span>
          <span className="child-state">{r.state}</span>
          {r.copy ? (
            <span className="child-copy" title={r.copy.detail}>
              {r.copy.label}
            </span>
          ) : null}
          {r.id && open ? (
            <button type="button" className="link" aria-label={`Open ${r.name}'s conversation`} onClick={() => open(r.id!)}>
              Open
            </button>
          ) : null}
          {r.id && watch ? (
            <button type="button" className="link" aria-label={`Watch ${r.name}`} title="Its conversation, live, beside this one" onClick={() => watch(r.id!, r.name)}>
              Watch
            </button>
          ) : null}
          {r.id && stop && running && !r.ended ? (
            <button type="button" className="link" aria-label={`Stop ${r.name}`} title="Stop this sub-agent; the others go on" onClick={() => stop(r.id!)}>
              Stop
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
