// Said at the top of a sub-agent's conversation: whose task it does, and
// the way back (children are not in the conversation list).
import type { ChildOf, ContextId } from "../generated/protocol";

export function ChildBanner({ child, onOpen }: { child: ChildOf; onOpen?: (id: ContextId) => void }) {
  return (
    <p className="child-banner" data-testid="child-banner">
      <span>
        Sub-agent <strong>{child.name}</strong>: it works on one task of its parent conversation and ends by submitting a
        result (at most {child.turn_limit} turns).
      </span>
      {onOpen ? (
        <button type="button" className="link" onClick={() => onOpen(child.parent)}>
          Back to the parent conversation
        </button>
      ) : null}
    </p>
  );
}
