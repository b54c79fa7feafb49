import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, ContextSnapshot, ContextStrategy } from "../generated/protocol";

/** How a long conversation is fitted, in words; the count is set beside. */
const STRATEGIES: { id: ContextStrategy["kind"]; label: string }[] = [
  { id: "intelligent", label: "Keep the latest messages, then files, text and tools" },
  { id: "importance_scoring", label: "Keep the latest messages, then what matters most" },
  { id: "recent_n", label: "Send only the latest messages" },
];

/** Where summaries start; 0 is "only when I ask" (`/compact`). */
export const THRESHOLDS = [0, 70, 80, 85, 92, 95, 100];

export function thresholdLabel(p: number): string {
  return p === 0 ? "Only when I ask (/compact)" : `At ${p} % of the window`;
}

export function countOf(s: ContextStrategy): number {
  return s.kind === "recent_n" ? s.n : s.keep_last;
}

export function strategyOf(kind: ContextStrategy["kind"], count: number): ContextStrategy {
  const n = Math.max(1, Math.round(count) || 1);
  return kind === "recent_n" ? { kind, n } : { kind, keep_last: n };
}

/** Another strategy: the count carries over between the two that keep
 *  the latest messages; "only the latest" starts at 20, the others at 10. */
export function switchTo(kind: ContextStrategy["kind"], from: ContextStrategy): ContextStrategy {
  const same = (kind === "recent_n") === (from.kind === "recent_n");
  return strategyOf(kind, same ? countOf(from) : kind === "recent_n" ? 20 : 10);
}

/** The strategy alone (the Options panel). */
export function StrategySelect({ strategy, onStrategy }: { strategy: ContextStrategy; onStrategy: (s: ContextStrategy) => void }) {
  return (
    <select aria-label="Context strategy" value={strategy.kind} onChange={(e) => onStrategy(switchTo(e.target.value as ContextStrategy["kind"], strategy))}>
      {STRATEGIES.map((s) => <option key={s.id} value={s.id}>{s.label}</option>)}
    </select>
  );
}

interface Props {
  backend: Backend;
  id: ContextId;
  snapshot: ContextSnapshot;
  onChanged: () => void;
  onError: (e: unknown) => void;
}

/** Every fitting setting of the conversation: the strategy and how many
 *  latest messages it always keeps, when summaries start, and the reserve
 *  kept for the answer. Each applies from the next request. */
export function FittingSettings({ backend, id, snapshot, onChanged, onError }: Props) {
  const [count, setCount] = useState(String(countOf(snapshot.strategy)));
  const [reserve, setReserve] = useState(snapshot.generation.max_output_tokens?.toString() ?? "");
  useEffect(() => setCount(String(countOf(snapshot.strategy))), [snapshot.strategy]);
  useEffect(() => setReserve(snapshot.generation.max_output_tokens?.toString() ?? ""), [snapshot.generation.max_output_tokens]);
  const save = (strategy: ContextStrategy, percent: number | null) => backend.setContextStrategy(id, strategy, percent).then(onChanged, onError);
  const saveCount = () => {
    const n = Number(count);
    if (Number.isFinite(n) && n >= 1 && n !== countOf(snapshot.strategy)) save(strategyOf(snapshot.strategy.kind, n), null);
    else setCount(String(countOf(snapshot.strategy)));
  };
  const saveReserve = () => {
    const n = reserve.trim() ? Number(reserve) : null;
    if (n !== null && (!Number.isInteger(n) || n < 16)) return setReserve(snapshot.generation.max_output_tokens?.toString() ?? "");
    if (n === snapshot.generation.max_output_tokens) return;
    backend.setGeneration(id, { ...snapshot.generation, max_output_tokens: n }).then(onChanged, onError);
  };
  return (
    <fieldset className="fitting">
      <legend>Fitting this conversation</legend>
      <label>
        <span>Long conversations</span>
        <StrategySelect strategy={snapshot.strategy} onStrategy={(s) => save(s, null)} />
      </label>
      <label>
        <span>{snapshot.strategy.kind === "recent_n" ? "Messages sent" : "Latest messages always kept"}</span>
        <input aria-label="How many of the latest to keep" type="number" min={1} value={count} onChange={(e) => setCount(e.target.value)} onBlur={saveCount} onKeyDown={(e) => e.key === "Enter" && saveCount()} />
      </label>
      <label>
        <span>Summarise older messages</span>
        <select aria-label="Summarise at" value={snapshot.summarize_at_percent} onChange={(e) => save(snapshot.strategy, Number(e.target.value))}>
          {THRESHOLDS.map((p) => <option key={p} value={p}>{thresholdLabel(p)}</option>)}
          {THRESHOLDS.includes(snapshot.summarize_at_percent) ? null : <option value={snapshot.summarize_at_percent}>At {snapshot.summarize_at_percent} %</option>}
        </select>
      </label>
      <label>
        <span>Reserve for the answer</span>
        <input aria-label="Reserve for the answer (tokens)" type="number" min={16} placeholder="the model's" value={reserve} onChange={(e) => setReserve(e.target.value)} onBlur={saveReserve} onKeyDown={(e) => e.key === "Enter" && saveReserve()} />
      </label>
    </fieldset>
  );
}
