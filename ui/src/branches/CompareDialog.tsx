import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { BranchId, BranchSummary, ContextId, MergeFile, MergeItem, Message } from "../generated/protocol";
import { DiffLines } from "../chat/DiffLines";
import { describeMessage } from "./describeMessage";
import { useModal } from "../useModal";
import { branchLabel } from "./label";

interface Props {
  backend: Backend;
  contextId: ContextId;
  branches: BranchSummary[];
  active: BranchId;
  /** The branch in use's messages, oldest first. */
  messages: Message[];
  other: BranchId;
  onClose: () => void;
  onMerge: (source: BranchId) => void;
}

/** Two branches side by side from their common ancestor: the branch in
 *  use on the left, the other on the right, and the files the other
 *  changed, each against the file here. The other side comes from a
 *  merge preview, so nothing changes. */
export function CompareDialog({ backend, contextId, branches, active, messages, other, onClose, onMerge }: Props) {
  const dialog = useModal();
  const [theirs, setTheirs] = useState<{ base: number | null; items: MergeItem[]; files: MergeFile[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const options = { source: other, strategy: "append" as const, picks: [], missing: "bring" as const, resolutions: [], summary: null, answer_again: false, files: [] };
    backend.previewMerge(contextId, options).then(
      (p) => live && setTheirs({ base: p.base, items: p.items, files: p.files }),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [backend, contextId, other]);
  const name = (b: BranchId) => ((x) => (x ? branchLabel(x) : b))(branches.find((x) => x.id === b));
  const at = theirs?.base === null || theirs === null ? -1 : messages.findIndex((m) => m.id === theirs.base);
  const ours = messages.slice(at + 1).filter((m) => m.body.type !== "system_control");
  const baseText = at >= 0 ? describeMessage(messages[at]) : "the start";
  return (
    <dialog ref={dialog} className="compare-dialog" aria-labelledby="compare-title" onClose={onClose}>
      <h2 id="compare-title">{name(active)} and {name(other)}</h2>
      <p className="hint">Since they parted after: {baseText}</p>
      {error ? <p className="merge-blocked" role="status">{error}</p> : null}
      <div className="compare-columns">
        <section aria-label={`${name(active)} since the fork`}>
          <h3>{name(active)} <small>({ours.length})</small></h3>
          <ol>
            {ours.map((m) => <li key={m.id}>{describeMessage(m)}</li>)}
          </ol>
        </section>
        <section aria-label={`${name(other)} since the fork`}>
          <h3>{name(other)} <small>({theirs?.items.length ?? "…"})</small></h3>
          <ol>
            {(theirs?.items ?? []).map((i) => (
              <li key={i.id} className={i.fate === "duplicate" ? "fate-duplicate" : undefined}>
                <span className="who">{i.role ?? i.kind.replace("_", " ")}</span> {i.preview}
                {i.fate === "duplicate" ? <small> · also here</small> : null}
              </li>
            ))}
          </ol>
        </section>
      </div>
      {theirs?.files.length ? (
        <section className="compare-files" aria-label={`Files ${name(other)} has otherwise`}>
          <h3>Files: what {name(other)} changed, against the files here</h3>
          {theirs.files.map((f) => (
            <details key={f.path}>
              <summary>
                <code>{f.path}</code>{" "}
                <small>
                  {f.action === "conflict" ? "changed here too, in the same lines" : f.action === "kept" ? "changed here too" : f.action}
                  {f.lines ? ` · +${f.lines.added} −${f.lines.removed}` : ""}
                </small>
              </summary>
              {f.diff ? <DiffLines lines={f.diff.split("\n").slice(2)} /> : f.conflict?.marked ? <DiffLines lines={f.conflict.marked.split("\n")} /> : null}
            </details>
          ))}
        </section>
      ) : null}
      <div className="dialog-buttons">
        <button type="button" onClick={() => dialog.current?.close()}>Close</button>
        <button type="button" className="primary" onClick={() => onMerge(other)}>Merge {name(other)} into {name(active)}…</button>
      </div>
    </dialog>
  );
}
