import type { Backend } from "../backend/types";
import type { ContextId, QueuedPreview, TeamRoute } from "../generated/protocol";
import { RouteBar } from "../team/RouteBar";

/** What waits its turn: messages queued while busy (each removable), and
 *  a team chain's members. */
export function Waiting({ backend, id, queue, route, onError }: { backend: Backend; id: ContextId; queue: QueuedPreview[]; route: TeamRoute | null; onError: (e: unknown) => void }) {
  return (
    <>
      <RouteBar route={route} onSteer={(action) => void backend.steerTeam(id, action).catch(onError)} />
      {queue.length > 0 ? (
        <ul className="queue" aria-label="Queued messages">
          {queue.map((q) => (
            <li key={q.message_id}>
              Queued: {q.preview}{" "}
              <button type="button" className="unqueue" onClick={() => void backend.unqueue(id, q.message_id).catch(onError)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
