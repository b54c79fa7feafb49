import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, Workflow, WorkflowList } from "../generated/protocol";

interface Props {
  backend: Backend;
  id: ContextId;
  /** What the composer holds: `/` lists the workflows, `/name ` opens one. */
  text: string;
  /** Empties the composer once the workflow runs. */
  onRan: () => void;
}

/** Workflows as slash commands: typing `/` lists them (from the folder's
 *  `.braid/workflows` and the app's), choosing one (or typing `/name `)
 *  asks for its parameters in a small form, and Run sends it. */
export function WorkflowPicker({ backend, id, text, onRan }: Props) {
  const [list, setList] = useState<WorkflowList>({ workflows: [], problems: [] });
  const [chosen, setChosen] = useState<Workflow | null>(null);
  const [args, setArgs] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const typed = /^\/(\S*)$/.exec(text)?.[1] ?? null;
  const named = /^\/(\S+) $/.exec(text)?.[1] ?? null;
  const asking = typed !== null || named !== null;
  useEffect(() => {
    if (!asking) return;
    let live = true;
    backend.listWorkflows(id).then((l) => live && setList(l), () => live && setList({ workflows: [], problems: [] }));
    return () => {
      live = false;
    };
  }, [backend, id, asking]);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const open = (w: Workflow) => {
    setArgs({});
    setError(null);
    setChosen(w);
  };
  // `/name ` typed: that workflow's form opens (until Esc or Cancel).
  const typedOne = named && named !== dismissed ? list.workflows.find((w) => w.name === named) : undefined;
  const current = chosen ?? typedOne ?? null;
  const close = () => {
    setChosen(null);
    setArgs({});
    if (current) setDismissed(current.name);
  };

  if (current) {
    const value = (name: string) => args[name] ?? current.parameters.find((p) => p.name === name)?.default ?? "";
    const missing = current.parameters.filter((p) => !value(p.name).trim());
    const run = () => {
      setRunning(true);
      const filled = Object.fromEntries(current.parameters.map((p) => [p.name, value(p.name)]));
      backend.sendPayload({ context_id: id, payload: { type: "workflow", name: current.name, arguments: filled }, queue_if_busy: false }).then(
        () => {
          setRunning(false);
          setChosen(null);
          setArgs({});
          onRan();
        },
        (e: Error) => {
          setRunning(false);
          setError(e.message);
        },
      );
    };
    return (
      <form className="prompt-form workflow-form" aria-label={`Workflow ${current.name}`} onSubmit={(e) => (e.preventDefault(), run())}
        onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), close())}>
        <strong>/{current.name}</strong> {current.description ? <small>{current.description}</small> : null}
        {current.parameters.map((p, i) => (
          <label key={p.name}>
            {p.name}{p.default === null ? " *" : ""}
            <input autoFocus={i === 0} value={value(p.name)} placeholder={p.description} onChange={(e) => setArgs({ ...args, [p.name]: e.target.value })} />
          </label>
        ))}
        <div className="actions">
          <button type="submit" className="primary" autoFocus={current.parameters.length === 0} disabled={missing.length > 0 || running} title={missing.length ? `Needs ${missing.map((p) => p.name).join(", ")}` : "Send the workflow's prompt"}>
            {running ? "Running…" : "Run"}
          </button>
          <button type="button" onClick={close}>Cancel</button>
        </div>
        {error ? <small className="field-error" role="alert">{error}</small> : null}
      </form>
    );
  }
  if (typed === null) return null;
  const q = typed.toLowerCase();
  const shown = list.workflows.filter((w) => w.name.toLowerCase().includes(q)).slice(0, 8);
  if (shown.length === 0 && list.problems.length === 0) return null;
  return (
    <ul className="file-picker prompt-picker" aria-label="Workflows">
      {shown.map((w) => (
        <li key={w.name}>
          <button type="button" onClick={() => open(w)}>
            /{w.name} {w.description ? <small>{w.description}</small> : null} <small className="origin">{w.origin === "workspace" ? "this folder" : "Braid"}</small>
          </button>
        </li>
      ))}
      {list.problems.map((p) => (
        <li key={p} className="field-error" role="note">Not a workflow: {p}</li>
      ))}
    </ul>
  );
}
