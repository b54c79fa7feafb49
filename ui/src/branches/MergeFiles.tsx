import { useState } from "react";
import { DiffLines } from "../chat/DiffLines";
import type { FileTake, MergeFile } from "../generated/protocol";

interface Props {
  files: MergeFile[];
  /** The settlement chosen for each conflicting file, by path. */
  takes: Record<string, FileTake>;
  onTake: (path: string, take: FileTake | null) => void;
}

const WAY: Record<string, string> = {
  ours: "Keep this branch's",
  theirs: "Take the source's",
  both: "Keep both (this branch's first)",
  edited: "Edit the result",
};

const ACTION: Record<string, string> = { added: "added", changed: "merged", removed: "removed", kept: "kept as it is", conflict: "to settle" };

/** What a merge writes in the workspace: each file with its diff from
 *  what it holds now, and each file both branches changed in the same
 *  lines, to settle (ours, theirs, both, or edited by hand). */
export function MergeFiles({ files, takes, onTake }: Props) {
  const [open, setOpen] = useState<string | null>(null);
  if (!files.length) return null;
  const unsettled = files.filter((f) => f.action === "conflict");
  return (
    <section className="merge-files" aria-label="Files the merge writes">
      <h3>
        Files · {files.length - unsettled.length} merged{unsettled.length ? ` · ${unsettled.length} to settle` : ""}
      </h3>
      <ul>
        {files.map((f) => (
          <li key={f.path} className={f.conflict ? "file-conflict" : undefined}>
            <button type="button" className="link" aria-expanded={open === f.path} onClick={() => setOpen(open === f.path ? null : f.path)}>
              {f.path}
            </button>
            <small>
              {" "}
              · {ACTION[f.action] ?? f.action}
              {f.lines ? ` · +${f.lines.added} −${f.lines.removed}` : ""}
            </small>
            {open === f.path && f.diff ? <DiffLines lines={f.diff.split("\n").slice(2)} /> : null}
            {f.conflict ? <Settle file={f} take={takes[f.path] ?? null} onTake={(t) => onTake(f.path, t)} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Settle({ file, take, onTake }: { file: MergeFile; take: FileTake | null; onTake: (t: FileTake | null) => void }) {
  const c = file.conflict!;
  const why =
    c.kind === "lines"
      ? "Both branches changed the same lines."
      : c.kind === "deleted_and_changed"
        ? "One branch deleted this file, the other changed it."
        : "Both branches changed this file, which is not text.";
  const start = c.marked ?? c.ours ?? c.theirs ?? "";
  return (
    <fieldset className="conflict" aria-label={`Settle ${file.path}`}>
      <legend>{file.path}</legend>
      <p>{why}</p>
      {c.marked ? <DiffLines lines={c.marked.split("\n")} /> : null}
      {c.options.map((w) => (
        <label key={w}>
          <input
            type="radio"
            name={`file-${file.path}`}
            checked={take?.kind === w}
            onChange={() => onTake(w === "edited" ? { kind: "edited", text: start } : ({ kind: w } as FileTake))}
          />
          {WAY[w] ?? w}
        </label>
      ))}
      {take?.kind === "edited" ? (
        <textarea aria-label={`The merged ${file.path}`} rows={8} value={take.text} onChange={(e) => onTake({ kind: "edited", text: e.target.value })} />
      ) : null}
    </fieldset>
  );
}
