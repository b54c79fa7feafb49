import type { SearchHit } from "../generated/protocol";

interface Props {
  query: string;
  hits: SearchHit[] | null;
  error: string | null;
  onOpen: (hit: SearchHit) => void;
}

/** Messages found by a search, each with its matching line; a click
 *  opens the conversation at the message. Title matches are the list
 *  above, so only messages are here. */
export function SearchResults({ query, hits, error, onOpen }: Props) {
  if (error) return <p className="field-error" role="alert">{error}</p>;
  if (hits === null) return <p className="hint" aria-live="polite">Searching…</p>;
  const messages = hits.filter((h) => h.message_id !== null);
  if (messages.length === 0) return <p className="hint" aria-live="polite">No message contains “{query}”.</p>;
  return (
    <section className="search-results" aria-label="Messages found">
      <h3>In messages ({messages.length})</h3>
      <ul>
        {messages.map((h) => (
          <li key={`${h.context_id}:${h.message_id}`}>
            <button type="button" className="hit" onClick={() => onOpen(h)} title={`Open “${h.title}” at this message`}>
              <span className="hit-title">{h.title}</span>
              <span className="hit-line">
                {h.snippet.map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
