import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import { MergeFiles } from "./MergeFiles";
import type {
  BranchId,
  BranchSummary,
  ContextId,
  FileTake,
  MergeOptions,
  MergePreview,
  MergeStrategy,
  MissingDependencies,
  Resolution,
} from "../generated/protocol";
import { useModal } from "../useModal";
import { branchLabel } from "./label";

interface Props {
  backend: Backend;
  contextId: ContextId;
  branches: BranchSummary[];
  active: BranchId;
  source: BranchId;
  onClose: () => void;
  onMerged: () => void;
}

const STRATEGIES: { id: MergeStrategy; label: string; hint: string }[] = [
  { id: "summary", label: "Summary", hint: "The model summarises what the branch found; you edit it; it joins as one card" },
  { id: "fast_forward", label: "Fast-forward", hint: "This branch has not moved since the fork: it takes the other's messages" },
  { id: "append", label: "Append", hint: "Copies the branch's messages after this one's, skipping duplicates" },
  { id: "cherry_pick", label: "Cherry-pick", hint: "Copies the messages you choose, with what they depend on" },
  { id: "rebase", label: "Rebase", hint: "Replays the branch's turns here, as they are or answered again" },
];

const RESOLUTION: Record<Resolution, string> = {
  keep_source: "Keep the source's",
  keep_target: "Keep this branch's",
  keep_both: "Keep both",
  drop: "Drop both",
};

const FATE: Record<string, string> = {
  brought: "brought",
  dependency: "brought (needed)",
  as_text: "as text",
  duplicate: "already here",
  left_out: "left out",
  resolved: "left out (conflict)",
  replayed: "sent again",
};

/** Merging a branch into the branch in use: strategy, choices, conflicts
 *  and the preview (messages, tokens, files) before anything changes. */
export function MergeDialog({ backend, contextId, branches, active, source: initial, onClose, onMerged }: Props) {
  const dialog = useModal();
  const [source, setSource] = useState<BranchId>(initial);
  const [strategy, setStrategy] = useState<MergeStrategy>("summary");
  const [picks, setPicks] = useState<number[]>([]);
  const [missing, setMissing] = useState<MissingDependencies>("bring");
  const [chosen, setChosen] = useState<Record<string, Resolution>>({});
  const [summary, setSummary] = useState("");
  const [answerAgain, setAnswerAgain] = useState(false);
  const [takes, setTakes] = useState<Record<string, FileTake>>({});
  const [preview, setPreview] = useState<MergePreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState<"drafting" | "merging" | null>(null);


  const options: MergeOptions = {
    source,
    strategy,
    picks,
    missing,
    resolutions: Object.entries(chosen).map(([conflict, resolution]) => ({ conflict, resolution })),
    summary: summary.trim() ? summary : null,
    answer_again: answerAgain,
    files: Object.entries(takes).map(([path, take]) => ({ path, take })),
  };
  const key = JSON.stringify(options);
  // The preview follows every change; a conflict starts on its suggestion.
  useEffect(() => {
    let live = true;
    const o: MergeOptions = JSON.parse(key);
    const t = window.setTimeout(() => {
      backend.previewMerge(contextId, o).then(
        (p) => {
          if (!live) return;
          setPreview(p);
          setError(null);
          // Only conflicts with no choice yet: a choice made while this
          // preview was on its way stands.
          const fresh = p.conflicts.filter((c) => !o.resolutions.some((r) => r.conflict === c.id));
          if (fresh.length) setChosen((ch) => ({ ...Object.fromEntries(fresh.map((c) => [c.id, c.suggested])), ...ch }));
        },
        (e: Error) => live && setError(e.message),
      );
    }, 120);
    return () => {
      live = false;
      window.clearTimeout(t);
    };
  }, [backend, contextId, key]);

  const draft = () => {
    setWorking("drafting");
    backend.draftMergeSummary(contextId, source).then(
      (text) => setSummary(text),
      (e: Error) => setError(e.message),
    ).finally(() => setWorking(null));
  };
  const apply = () => {
    setWorking("merging");
    backend.merge(contextId, options).then(
      () => onMerged(),
      (e: Error) => {
        setError(e.message);
        setWorking(null);
      },
    );
  };
  const targetName = ((t) => (t ? branchLabel(t) : active))(branches.find((b) => b.id === active));
  const others = branches.filter((b) => b.id !== active);
  const toggle = (id: number) => setPicks((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]));

  return (
    <dialog ref={dialog} className="merge-dialog" aria-labelledby="merge-title" onClose={onClose}>
      <h2 id="merge-title">Merge into {targetName}</h2>
      <label>
        From
        <select aria-label="Branch to merge" value={source} onChange={(e) => { setSource(e.target.value); setPicks([]); setChosen({}); setTakes({}); }}>
          {others.map((b) => <option key={b.id} value={b.id}>{branchLabel(b)}</option>)}
        </select>
      </label>
      <fieldset className="strategies">
        <legend>Strategy</legend>
        {STRATEGIES.map((s) => (
          <label key={s.id} title={s.hint}>
            <input type="radio" name="strategy" value={s.id} checked={strategy === s.id} onChange={() => setStrategy(s.id)} disabled={s.id === "fast_forward" && preview !== null && !preview.fast_forward_possible} />
            {s.label}
          </label>
        ))}
      </fieldset>
      <p className="hint">{STRATEGIES.find((s) => s.id === strategy)?.hint}</p>

      {strategy === "summary" ? (
        <div className="merge-summary">
          <textarea aria-label="Summary to merge" rows={6} value={summary} placeholder="What the branch found: decisions, results, files touched" onChange={(e) => setSummary(e.target.value)} />
          <button type="button" onClick={draft} disabled={working !== null}>{working === "drafting" ? "The model is writing…" : "Write it with the model"}</button>
        </div>
      ) : null}
      {strategy === "cherry_pick" ? (
        <fieldset className="missing">
          <legend>Messages the chosen ones need</legend>
          <label><input type="radio" name="missing" checked={missing === "bring"} onChange={() => setMissing("bring")} /> Bring them</label>
          <label><input type="radio" name="missing" checked={missing === "without"} onChange={() => setMissing("without")} /> Go on without (left-alone tool messages become text)</label>
        </fieldset>
      ) : null}
      {strategy === "rebase" ? (
        <label><input type="checkbox" checked={answerAgain} onChange={(e) => setAnswerAgain(e.target.checked)} /> Answer again: send each of the branch's questions to the model anew</label>
      ) : null}

      {preview ? (
        <>
          <ul className="merge-items" aria-label="The branch's messages since the fork">
            {preview.items.map((i) => (
              <li key={i.id} className={`fate-${i.fate}`}>
                {strategy === "cherry_pick" ? (
                  <input type="checkbox" aria-label={`Pick: ${i.preview}`} checked={picks.includes(i.id)} onChange={() => toggle(i.id)} />
                ) : null}
                <span className="who">{i.role ?? i.kind.replace("_", " ")}</span> {i.preview}
                <small> · {i.tokens} tokens · {strategy === "summary" && i.fate === "left_out" ? "summarised" : FATE[i.fate]}</small>
              </li>
            ))}
          </ul>
          {preview.dependencies.length ? (
            <div className="merge-warning" role="note">
              {preview.dependencies.map((d) => <div key={`${d.message}-${d.needs}`}>Message {d.message} needs {d.needs}: {d.why}.</div>)}
            </div>
          ) : null}
          {preview.conflicts.map((c) => (
            <fieldset key={c.id} className="conflict">
              <legend>{c.title}</legend>
              <p>{c.detail}</p>
              {c.source_messages.length || c.target_messages.length ? (
                <small>
                  Source: {c.source_messages.map((m) => new Date(m.created_at).toLocaleTimeString()).join(", ") || "—"} · Here:{" "}
                  {c.target_messages.map((m) => new Date(m.created_at).toLocaleTimeString()).join(", ") || "—"}
                </small>
              ) : null}
              {c.options.map((o) => (
                <label key={o}>
                  <input type="radio" name={`conflict-${c.id}`} checked={chosen[c.id] === o} onChange={() => setChosen((ch) => ({ ...ch, [c.id]: o }))} />
                  {RESOLUTION[o]}{o === c.suggested ? " (suggested)" : ""}
                </label>
              ))}
            </fieldset>
          ))}
          <MergeFiles
            files={preview.files}
            takes={takes}
            onTake={(path, take) => setTakes(({ [path]: _, ...rest }) => (take ? { ...rest, [path]: take } : rest))}
          />
          <p className="merge-figures">
            +{preview.added_tokens} tokens · {targetName}: {preview.target_tokens_before} → {preview.target_tokens_after} tokens
          </p>
        </>
      ) : null}
      {error ?? preview?.blocked ? <p className="merge-blocked" role="status">{error ?? preview?.blocked}</p> : null}
      <div className="dialog-buttons">
        <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
        <button type="button" className="primary" disabled={!preview || preview.blocked !== null || working !== null} onClick={apply}>
          {working === "merging" ? "Merging…" : "Merge"}
        </button>
      </div>
    </dialog>
  );
}
