import type { TeamAction, TeamRoute } from "../generated/protocol";
import { useMemberColour } from "./colours";

function Name({ name }: { name: string }) {
  const colour = useMemberColour(name);
  return <strong style={colour ? { color: colour } : undefined}>{name}</strong>;
}

/** A team chain's turns: who answers now (Skip), who follows (each can be
 *  skipped), a pause after too many turns in a row (Resume), and Stop. */
export function RouteBar({ route, onSteer }: { route: TeamRoute | null; onSteer: (action: TeamAction) => void }) {
  if (!route) return null;
  return (
    <div className="team-route" role="region" aria-label="Team turns" data-testid="team-route">
      {route.running ? (
        <span>
          <Name name={route.running} /> is answering{" "}
          <button type="button" className="link" onClick={() => onSteer({ kind: "skip_running" })} title="Stop this member's answer and go on with the next">
            Skip
          </button>
        </span>
      ) : null}
      {route.paused ? (
        <span>
          Paused after {route.agent_turns} turns in a row without you.{" "}
          <button type="button" className="primary" onClick={() => onSteer({ kind: "resume" })}>Resume</button>
        </span>
      ) : null}
      {route.queue.length ? (
        <span>
          Next:{" "}
          <ol aria-label="Next in turn">
            {route.queue.map((name, i) => (
              <li key={`${i}-${name}`}>
                <Name name={name} />
                <button type="button" className="remove" aria-label={`Skip ${name} (place ${i + 1})`} onClick={() => onSteer({ kind: "skip", position: i })}>✕</button>
              </li>
            ))}
          </ol>
        </span>
      ) : null}
      <button type="button" className="cancel" onClick={() => onSteer({ kind: "stop" })} title="Stop the answer and drop the turns queued">
        Stop the chain
      </button>
    </div>
  );
}
