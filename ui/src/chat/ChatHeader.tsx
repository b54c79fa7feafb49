import { IndexStatus } from "./IndexStatus";
import { choiceKey } from "../settings/choiceKey";
import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { AgentMode, BranchId, ContextSnapshot, ContextStrategy, GenerationSettings, ModelChoice, SettingsView, ToolApprovalPolicy } from "../generated/protocol";
import { meter, partsLabel } from "./meter";
import { StrategySelect } from "../context/FittingSettings";
import { counted } from "../counted";
import { BranchControls } from "./BranchControls";
import { FolderControl } from "./FolderControl";
import { GenerationControls } from "./GenerationControls";
import { ModeControls, PolicySelect, RoleSelect, SandboxControls } from "./ToolControls";
import { SwitchFilesDialog } from "../branches/SwitchFilesDialog";
import { branchLabel } from "../branches/label";
import { ConversationPrompt } from "./ConversationPrompt";
import { onDemand } from "../onDemand";

const TeamDialog = onDemand(() => import("../team/TeamDialog").then((m) => m.TeamDialog));
const SentDialog = onDemand(() => import("./SentDialog").then((m) => m.SentDialog));

interface Props {
  backend: Backend;
  /** Why this machine has no sandbox for commands; null when it has one. */
  noSandbox: string | null;
  snapshot: ContextSnapshot | null;
  settings: SettingsView | null;
  busy: boolean;
  onModelChanged: () => void;
  onMode: (mode: AgentMode) => void;
  onPolicy: (policy: ToolApprovalPolicy) => void;
  onStrategy: (strategy: ContextStrategy) => void;
  onGeneration: (settings: GenerationSettings) => void;
  onSwitchBranch: (b: BranchId) => void;
  onRenameBranch: (b: BranchId, name: string) => void;
  onDeleteBranch: (b: BranchId) => void;
  onIsolateBranch: (b: BranchId) => void;
  onRemoveBranchCopy: (b: BranchId) => void;
  onGraph: () => void;
  onMerge: (source: BranchId) => void;
  /** Opens the context view (the window by part, `/context`). */
  onContext: () => void;
  onError: (message: string) => void;
}

/** Title, the conversation's model (default or its own), and the meter. */
export function ChatHeader({ backend, noSandbox, snapshot, settings, busy, onModelChanged, onMode, onPolicy, onStrategy, onGeneration, onSwitchBranch, onRenameBranch, onDeleteBranch, onIsolateBranch, onRemoveBranchCopy, onGraph, onMerge, onContext, onError }: Props) {
  const [models, setModels] = useState<Record<string, string[]>>({});
  const [seeing, setSeeing] = useState(false);
  const [teamOpen, setTeamOpen] = useState(false);
  const [switching, setSwitching] = useState<BranchId | null>(null);
  const switchingTo = snapshot?.branches.find((b) => b.id === switching);
  // Ctrl+Shift+I: what the model saw in the last request.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === "i") {
        e.preventDefault();
        setSeeing(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  // The providers' model lists, fetched once per settings change; a
  // provider that cannot list still offers its default model.
  useEffect(() => {
    let live = true;
    for (const p of settings?.providers ?? []) {
      backend.listModels(p.id).then(
        (ms) => live && setModels((m) => ({ ...m, [p.id]: ms.map((x) => x.id) })),
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [backend, settings]);

  if (!snapshot) return <header className="chat-header" />;
  const m = meter(snapshot);
  const own = snapshot.summary.model;
  const value = own ? choiceKey(own) : "";
  const effective = snapshot.effective_model;
  const choose = (v: string) => {
    const choice: ModelChoice | null = v ? JSON.parse(v) : null;
    backend.setContextModel(snapshot.summary.id, choice).then(onModelChanged, (e: Error) => onError(e.message));
  };
  const branch = snapshot.branches.find((b) => b.id === snapshot.active_branch);
  const chooseForBranch = (v: string) => {
    const choice: ModelChoice | null = v ? JSON.parse(v) : null;
    backend.setBranchModel(snapshot.summary.id, snapshot.active_branch, choice).then(onModelChanged, (e: Error) => onError(e.message));
  };
  // Every provider's models, with the ones in use even if not listed.
  const options = (extra: ModelChoice | null | undefined) =>
    settings?.providers.map((p) => {
      const ids = new Set([...(models[p.id] ?? []), ...(p.default_model ? [p.default_model] : []), ...(extra?.provider_id === p.id ? [extra.model] : [])]);
      return (
        <optgroup key={p.id} label={p.name}>
          {[...ids].map((id) => (
            <option key={id} value={choiceKey({ provider_id: p.id, model: id })}>{p.name} · {id}</option>
          ))}
        </optgroup>
      );
    });
  const defaultLabel = own
    ? "Default model"
    : effective
      ? `Default — ${effective.provider_name} · ${effective.model}`
      : "Default — no provider set up";

  return (
    <header className="chat-header">
      <h1 title={snapshot.summary.working_dir}>{snapshot.summary.title}</h1>
      <label className="model">
        <span className="sr-only">Model</span>
        <select aria-label="Model for this conversation" value={value} onChange={(e) => choose(e.target.value)}>
          <option value="">{defaultLabel}</option>
          {options(own)}
        </select>
      </label>
      {snapshot.branches.length > 1 && branch ? (
        <label className="model">
          <span className="sr-only">Model for this branch</span>
          <select aria-label="Model for this branch" value={branch.model ? choiceKey(branch.model) : ""} onChange={(e) => chooseForBranch(e.target.value)} title={`Answers on ${branchLabel(branch)} come from this model`}>
            <option value="">{branchLabel(branch)}: the conversation's model</option>
            {options(branch.model)}
          </select>
        </label>
      ) : null}
      <BranchControls
        branches={snapshot.branches}
        active={snapshot.active_branch}
        busy={busy}
        onSwitch={onSwitchBranch}
        onSwitchWithFiles={setSwitching}
        onRename={onRenameBranch}
        onPrompt={(b, prompt) => backend.setBranchPrompt(snapshot.summary.id, b, prompt).then(onModelChanged, (e: Error) => onError(e.message))}
        onDelete={onDeleteBranch}
        onIsolate={onIsolateBranch}
        onRemoveCopy={onRemoveBranchCopy}
        onGraph={onGraph}
        onMerge={onMerge}
      />
      <ModeControls tools={snapshot.tools} busy={busy} onMode={onMode} />
      <button type="button" className="link team-button" disabled={busy} onClick={() => setTeamOpen(true)} title="Several agents in this conversation, answering in turn">
        {snapshot.team ? `Team (${snapshot.team.members.length})` : "Team…"}
      </button>
      {teamOpen ? <TeamDialog backend={backend} id={snapshot.summary.id} settings={settings} onClose={() => setTeamOpen(false)} onSaved={onModelChanged} /> : null}
      <IndexStatus backend={backend} id={snapshot.summary.id} folder={snapshot.summary.working_dir} />
      <GenerationControls
        key={snapshot.summary.id}
        generation={snapshot.generation}
        toolUse={snapshot.tool_use}
        onChange={onGeneration}
      >
        <FolderControl
          folder={snapshot.summary.working_dir}
          pick={backend.pickFolder?.bind(backend)}
          onMove={(folder) => backend.setWorkingDir(snapshot.summary.id, folder).then(onModelChanged)}
          broad={snapshot.tools.confirm_reads}
          busy={busy}
        />
        <ConversationPrompt
          main={snapshot.branches.find((b) => b.id === "main")}
          onSave={(prompt) => void backend.setBranchPrompt(snapshot.summary.id, "main", prompt).then(onModelChanged, (e: Error) => onError(e.message))}
        />
        <PolicySelect policy={snapshot.tools.policy} onPolicy={onPolicy} />
        <RoleSelect tools={snapshot.tools} onRole={(role) => void backend.setRole(snapshot.summary.id, role).then(onModelChanged, (e: Error) => onError(e.message))} />
        <SandboxControls sandbox={snapshot.tools.sandbox} noSandbox={noSandbox} onSandbox={(sandbox) => void backend.setSandbox(snapshot.summary.id, sandbox).then(onModelChanged, (e: Error) => onError(e.message))} />
        <label title={`When a conversation outgrows the model's window, older messages are left out this way; summaries start at ${snapshot.summarize_at_percent} %`}>
          <span>Long conversations</span>
          <StrategySelect strategy={snapshot.strategy} onStrategy={onStrategy} />
        </label>
      </GenerationControls>
      {m ? (
        <button type="button" className={`meter meter-${m.level}`} aria-label={`${m.label}: the context window by part`} onClick={onContext} title={`${m.parts.length ? `Last request: ${partsLabel(m.parts)}` : "Tokens of the last request"}${m.heldBack ? ` (${counted(m.heldBack, "tool")} held back: nothing asked for them)` : ""}. Click for the window by part (/context); Ctrl+Shift+I for what the model saw`}>
          <div className="bar">
            {m.parts.length ? (
              m.parts.map((p) => <div key={p.name} className={`part-${p.name}`} style={{ width: `${(p.tokens / m.window) * 100}%` }} />)
            ) : (
              <div style={{ width: `${Math.min(100, (m.fraction ?? 0) * 100)}%` }} />
            )}
          </div>
          <span data-testid="meter">{m.label}</span>
        </button>
      ) : (
        <button type="button" className="link" onClick={onContext} title="The context window by part (/context)">Context</button>
      )}
      {seeing ? <SentDialog backend={backend} id={snapshot.summary.id} onClose={() => setSeeing(false)} /> : null}
      {switchingTo ? (
        <SwitchFilesDialog
          backend={backend}
          id={snapshot.summary.id}
          branch={switchingTo}
          onClose={() => setSwitching(null)}
          onDone={() => {
            setSwitching(null);
            onModelChanged();
          }}
        />
      ) : null}
    </header>
  );
}

