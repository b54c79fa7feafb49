import type { HeldTool } from "../generated/protocol";

/** A word-level difference: each word of `before` and `now`, kept, removed
 *  or added (the longest common subsequence; tool texts are short). */
export function wordDiff(before: string, now: string): { text: string; kind: "same" | "removed" | "added" }[] {
  const a = before.split(/(\s+)/);
  const b = now.split(/(\s+)/);
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: { text: string; kind: "same" | "removed" | "added" }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ text: a[i++], kind: "same" });
      j++;
    } else if (j < b.length && (i >= a.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out.push({ text: b[j++], kind: "added" });
    } else {
      out.push({ text: a[i++], kind: "removed" });
    }
  }
  return out;
}

/** Before and now, each on its own line: the words the new text dropped
 *  struck out in the first, the words it added marked in the second. */
function Diff({ before, now }: { before: string; now: string }) {
  const words = wordDiff(before, now);
  return (
    <dl className="held-diff">
      <dt>Before</dt>
      <dd>{words.map((w, k) => (w.kind === "same" ? <span key={k}>{w.text}</span> : w.kind === "removed" ? <del key={k}>{w.text}</del> : null))}</dd>
      <dt>Now</dt>
      <dd>{words.map((w, k) => (w.kind === "same" ? <span key={k}>{w.text}</span> : w.kind === "added" ? <ins key={k}>{w.text}</ins> : null))}</dd>
    </dl>
  );
}

/** What changed of one tool: its description, its arguments, whether it
 *  says it only reads, and which server says so. */
export function ToolChange({ change }: { change: HeldTool }) {
  return (
    <>
      <Diff before={change.description_before} now={change.description_now} />
      {change.read_only_before !== change.read_only_now ? (
        <p className="tool-error" data-testid="read-only-changed">
          {change.read_only_now ? "It now says it only reads: the sandboxed policy would run it without asking." : "It no longer says it only reads."}
        </p>
      ) : null}
      {change.server_before && change.server_now && change.server_before !== change.server_now ? (
        <p className="tool-error" data-testid="server-changed">
          Another server answers now: it called itself {change.server_before}, and now {change.server_now}.
        </p>
      ) : null}
      {change.schema_before !== change.schema_now ? (
        <details>
          <summary>Its arguments changed too</summary>
          <Diff before={change.schema_before} now={change.schema_now} />
        </details>
      ) : null}
    </>
  );
}

/** A server's tools whose definition changed since Braid first saw them:
 *  held out of every conversation until the user reads what changed and
 *  accepts it (a changed description can carry instructions to the model). */
export function HeldTools({ server, held, onAccept }: { server: string; held: HeldTool[]; onAccept: (tool: string) => void }) {
  if (held.length === 0) return null;
  return (
    <div className="held-tools" role="alert" data-testid="held-tools">
      <strong>{server} changed {held.length === 1 ? "a tool" : `${held.length} tools`}: held until you accept</strong>
      <p className="hint">
        A tool&apos;s description goes to the model as instructions. Read what changed; until you accept, the model is not
        offered the tool and no approval given to the old text applies.
      </p>
      {held.map((h) => (
        <div key={h.name} className="held-tool" data-testid="held-tool">
          <code>{h.name}</code>
          <ToolChange change={h} />
          <button type="button" className="danger" onClick={() => onAccept(h.name)}>
            Accept the new definition
          </button>
        </div>
      ))}
    </div>
  );
}
