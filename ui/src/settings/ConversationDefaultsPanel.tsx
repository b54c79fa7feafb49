import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import { choiceKey } from "./choiceKey";
import type { ConversationDefaults, ModelChoice, Sandbox, SettingsView, ToolApprovalPolicy } from "../generated/protocol";
import { CONTINUE_CUT } from "../chat/GenerationControls";
import { PolicySelect, SandboxControls } from "../chat/ToolControls";
import { StrategySelect, THRESHOLDS, thresholdLabel } from "../context/FittingSettings";

const BRAID_STRATEGY = { kind: "intelligent", keep_last: 10 } as const;
const BRAID_POLICY: ToolApprovalPolicy = { kind: "white_list", tools: ["read_file", "list_directory", "glob_files"] };
const BRAID_SANDBOX: Sandbox = { level: "workspace_write", network: false, git_writable: false };

/** What a new conversation starts with: its model, folder, tool approval
 *  and sandbox, how a long one is fitted, when summaries start (or only
 *  when asked), and how often a cut answer goes on by itself. Each
 *  conversation can then change its own. */
export function ConversationDefaultsPanel({ backend, settings, onChange, onError }: { backend: Backend; settings: SettingsView; onChange: (v: SettingsView) => void; onError: (e: Error) => void }) {
  const d = settings.conversations;
  const save = (next: ConversationDefaults) => void backend.setConversationDefaults(next).then(onChange, onError);
  const [folder, setFolder] = useState(d.working_dir ?? "");
  const [startedIn, setStartedIn] = useState("");
  useEffect(() => setFolder(d.working_dir ?? ""), [d.working_dir]);
  useEffect(() => {
    if (!d.working_dir) void backend.defaultWorkingDir().then(setStartedIn, () => undefined);
  }, [backend, d.working_dir]);
  const saveFolder = (f: string) => {
    const working_dir = f.trim() || null;
    if (working_dir !== (d.working_dir ?? null)) save({ ...d, working_dir });
  };
  // Each provider's default model, and the one chosen even if not listed.
  const choices: ModelChoice[] = settings.providers.flatMap((p) => (p.default_model ? [{ provider_id: p.id, model: p.default_model }] : []));
  if (d.model && !choices.some((c) => c.provider_id === d.model!.provider_id && c.model === d.model!.model)) choices.push(d.model);
  const nameOf = (id: string) => settings.providers.find((p) => p.id === id)?.name ?? id;
  return (
    <fieldset className="fitting conversation-defaults">
      <legend>New conversations</legend>
      <label>
        <span>Model</span>
        <select aria-label="New conversations: model" value={d.model ? choiceKey(d.model) : ""} onChange={(e) => save({ ...d, model: e.target.value ? (JSON.parse(e.target.value) as ModelChoice) : null })}>
          <option value="">The default provider&apos;s model</option>
          {choices.map((c) => <option key={`${c.provider_id}/${c.model}`} value={choiceKey(c)}>{nameOf(c.provider_id)} · {c.model}</option>)}
        </select>
      </label>
      <label>
        <span>Folder</span>
        <input
          aria-label="New conversations: folder"
          placeholder={startedIn || "the folder Braid started in"}
          value={folder}
          onChange={(e) => setFolder(e.target.value)}
          onBlur={() => saveFolder(folder)}
          onKeyDown={(e) => e.key === "Enter" && saveFolder(folder)}
        />
        {backend.pickFolder ? <button type="button" onClick={() => void backend.pickFolder!(folder || startedIn).then((f) => f && saveFolder(f))}>Choose…</button> : null}
      </label>
      <PolicySelect label="New conversations: tool approval" policy={d.tool_policy ?? BRAID_POLICY} onPolicy={(tool_policy) => save({ ...d, tool_policy })} />
      <SandboxControls label="New conversations: command sandbox" sandbox={d.sandbox ?? BRAID_SANDBOX} onSandbox={(sandbox) => save({ ...d, sandbox })} />
      <label>
        <span>Long conversations</span>
        <StrategySelect strategy={d.strategy ?? BRAID_STRATEGY} onStrategy={(strategy) => save({ ...d, strategy })} />
      </label>
      <label>
        <span>Summarise older messages</span>
        <select aria-label="New conversations summarise at" value={d.summarize_at_percent ?? 92} onChange={(e) => save({ ...d, summarize_at_percent: Number(e.target.value) })}>
          {THRESHOLDS.map((p) => <option key={p} value={p}>{thresholdLabel(p)}</option>)}
        </select>
      </label>
      <label>
        <span>Answers cut at the limit</span>
        <select aria-label="New conversations: answers cut at the limit" value={d.continue_cut ?? ""} onChange={(e) => save({ ...d, continue_cut: e.target.value === "" ? null : Number(e.target.value) })}>
          {CONTINUE_CUT.map(([value, label]) => <option key={label} value={value ?? ""}>{label}</option>)}
        </select>
      </label>
    </fieldset>
  );
}
