import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { AgentType, ContextId, MemberCheck, SettingsView, Team, TeamMember } from "../generated/protocol";
import { PALETTE } from "./colours";
import { agentKey, agentOf, agentOptions } from "./agents";
import { useModal } from "../useModal";

const TASK_LIMIT = 5 * 1024;
const bytes = (s: string) => new TextEncoder().encode(s).length;

const defaultInstruction = (name: string) =>
  `You are ${name}. To hand the turn to another member, write [NEXT:name]; without it the user speaks next.`;

function newMember(n: number): TeamMember {
  const name = `member${n}`;
  return { name, agent: { kind: "api", model: null }, colour: PALETTE[(n - 1) % PALETTE.length], instruction: defaultInstruction(name), isolated: false };
}

const EMPTY: Team = { members: [newMember(1), newMember(2)], task: "", window: 5, byte_budget: 768 * 1024 };

/** The team panel: members (name, agent type, colour, instructions and
 *  an instruction file, their own window), the team task (5 KB at most)
 *  and how many messages each member sees. Saving checks every CLI
 *  member; a refusal says what to do and keeps everything typed. */
export function TeamDialog({ backend, id, settings, onClose, onSaved }: { backend: Backend; id: ContextId; settings: SettingsView | null; onClose: () => void; onSaved: () => void }) {
  const dialog = useModal();
  const [team, setTeam] = useState<Team | null>(null);
  const [existing, setExisting] = useState(false);
  const [checks, setChecks] = useState<MemberCheck[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    let live = true;
    backend.getTeam(id).then(
      (v) => {
        if (!live) return;
        setTeam(v.team ?? EMPTY);
        setExisting(!!v.team);
        setChecks(v.checks);
      },
      (e: Error) => live && (setTeam(EMPTY), setError(e.message)),
    );
    return () => {
      live = false;
    };
  }, [backend, id]);
  const edit = (i: number, change: Partial<TeamMember>) =>
    setTeam((t) => t && { ...t, members: t.members.map((m, j) => (j === i ? { ...m, ...change } : m)) });
  const save = (next: Team | null) => {
    setSaving(true);
    setError(null);
    backend.setTeam(id, next).then(
      () => {
        setSaving(false);
        onSaved();
        dialog.current?.close();
      },
      (e: Error) => {
        setSaving(false);
        setError(e.message);
      },
    );
  };
  const options = agentOptions(settings);
  const taskBytes = team ? bytes(team.task) : 0;
  return (
    <dialog ref={dialog} className="team-dialog" aria-labelledby="team-title" onClose={onClose}>
      <h2 id="team-title">Team</h2>
      <p className="hint">Members answer in turn: a message&apos;s <code>[NEXT:name]</code> markers say who speaks next (the first member when there are none).</p>
      {!team ? <p className="hint">Loading…</p> : null}
      {team ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save(team);
          }}
        >
          {team.members.map((m, i) => {
            const check = checks.find((c) => c.name === m.name);
            const cli = m.agent.kind !== "api";
            return (
              <fieldset key={i} className="member">
                <legend>
                  <span className="swatch" style={{ background: m.colour }} /> {m.name || "(no name)"}
                  {check ? <span className={check.ready ? "ready" : "tool-error"}>{check.ready ? " · ready" : ` · ${check.problem}`}</span> : null}
                </legend>
                <label>
                  <span>Name</span>
                  <input aria-label={`Name of member ${i + 1}`} value={m.name} required pattern="[\p{L}\p{N}_.\-]{1,40}" onChange={(e) => {
                      const name = e.target.value.trim();
                      // A default instruction follows the name it was written for.
                      edit(i, m.instruction === defaultInstruction(m.name) ? { name, instruction: defaultInstruction(name) } : { name });
                    }} />
                </label>
                <label>
                  <span>Agent</span>
                  <select aria-label={`Agent of ${m.name}`} value={agentKey(m.agent)} onChange={(e) => edit(i, { agent: agentOf(e.target.value, m.agent) as AgentType })}>
                    {options.map((o) => <option key={o.key} value={o.key}>{o.label}</option>)}
                  </select>
                </label>
                <label>
                  <span>Colour</span>
                  <input type="color" aria-label={`Colour of ${m.name}`} value={m.colour || PALETTE[i % PALETTE.length]} onChange={(e) => edit(i, { colour: e.target.value })} />
                </label>
                <label className="wide">
                  <span>Instructions</span>
                  <textarea aria-label={`Instructions of ${m.name}`} rows={2} value={m.instruction} onChange={(e) => edit(i, { instruction: e.target.value })} />
                </label>
                <label>
                  <span>Instruction file</span>
                  <input aria-label={`Instruction file of ${m.name}`} placeholder="e.g. docs/reviewer.md" value={m.instruction_file ?? ""} onChange={(e) => edit(i, { instruction_file: e.target.value || undefined })} />
                </label>
                <label title="Messages before the one it answers; empty: the team's">
                  <span>Sees</span>
                  <input type="number" min={0} max={200} aria-label={`Messages ${m.name} sees`} placeholder={String(team.window)} value={m.window ?? ""} onChange={(e) => edit(i, { window: e.target.value === "" ? undefined : Number(e.target.value) })} />
                </label>
                {cli ? (
                  <label>
                    <span>Program</span>
                    <input aria-label={`Program of ${m.name}`} placeholder={m.agent.kind === "other" ? "required" : "found on PATH"} value={m.program ?? ""} onChange={(e) => edit(i, { program: e.target.value || undefined })} />
                  </label>
                ) : null}
                {cli ? (
                  <label className="check" title="Each turn runs in its own copy of the folder (a git worktree in a repository); what it changed comes back when the turn ends">
                    <input type="checkbox" aria-label={`${m.name} works in its own copy`} checked={m.isolated} onChange={(e) => edit(i, { isolated: e.target.checked })} />
                    <span>Own copy</span>
                  </label>
                ) : null}
                <button type="button" className="link" disabled={team.members.length === 1} onClick={() => setTeam({ ...team, members: team.members.filter((_, j) => j !== i) })}>
                  Remove {m.name}
                </button>
              </fieldset>
            );
          })}
          <button type="button" className="link" onClick={() => setTeam({ ...team, members: [...team.members, newMember(team.members.length + 1)] })}>
            Add a member
          </button>
          <label className="wide">
            <span>Team task</span>
            <textarea aria-label="Team task" rows={3} value={team.task} onChange={(e) => setTeam({ ...team, task: e.target.value })} />
            <small className={taskBytes > TASK_LIMIT ? "tool-error" : "hint"} data-testid="task-size">
              {taskBytes.toLocaleString()} / {TASK_LIMIT.toLocaleString()} bytes{taskBytes > TASK_LIMIT ? " — it will be cut to the first 5 KB" : ""}
            </small>
          </label>
          <label>
            <span>Each member sees the last</span>
            <input type="number" min={0} max={200} aria-label="Messages each member sees" value={team.window} onChange={(e) => setTeam({ ...team, window: Number(e.target.value) })} /> messages
          </label>
          {error ? <p className="error" role="alert">{error}</p> : null}
          <div className="dialog-buttons">
            {existing ? (
              <button type="button" onClick={() => save(null)} disabled={saving}>No team</button>
            ) : null}
            <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
            <button type="submit" className="primary" disabled={saving}>{saving ? "Checking…" : "Save team"}</button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
