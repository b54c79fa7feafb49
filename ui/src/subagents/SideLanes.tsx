// A branch-graph row that started sub-agents: each child as a side lane
// beside the row, which opens the child's conversation.
import { useContext } from "react";
import { colour } from "../branches/graphNav";
import { SubAgents } from "./SubAgents";

export function SideLanes({ calls }: { calls: string[] }) {
  const { stored, open } = useContext(SubAgents);
  const children = stored.filter((c) => calls.includes(c.child.call_id)).sort((a, b) => a.child.index - b.child.index);
  if (children.length === 0) return null;
  return (
    <span className="side-lanes" data-testid="side-lanes">
      {children.map((c, i) => (
        <button
          key={c.context_id}
          type="button"
          className="side-lane"
          style={{ borderLeftColor: colour(100 + i) }}
          title={`Sub-agent ${c.child.name}: open its conversation`}
          disabled={!open}
          onClick={(e) => {
            e.stopPropagation();
            open?.(c.context_id);
          }}
        >
          {c.child.name}
        </button>
      ))}
    </span>
  );
}
