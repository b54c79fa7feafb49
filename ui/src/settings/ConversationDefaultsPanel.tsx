import type { Backend } from "../backend/types";
import type { ConversationDefaults, SettingsView } from "../generated/protocol";
import { CONTINUE_CUT } from "../chat/GenerationControls";
import { StrategySelect, THRESHOLDS, thresholdLabel } from "../context/FittingSettings";

const BRAID_STRATEGY = { kind: "intelligent", keep_last: 10 } as const;

/** What a new conversation starts with: how a long one is fitted, when
 *  summaries start (or only when asked), and how often a cut answer goes
 *  on by itself. Each conversation can then change its own. */
export function ConversationDefaultsPanel({ backend, settings, onChange, onError }: { backend: Backend; settings: SettingsView; onChange: (v: SettingsView) => void; onError: (e: Error) => void }) {
  const d = settings.conversations;
  const save = (next: ConversationDefaults) => void backend.setConversationDefaults(next).then(onChange, onError);
  return (
    <fieldset className="fitting conversation-defaults">
      <legend>New conversations</legend>
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
