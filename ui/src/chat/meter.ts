// The context meter: how much of the model's window the conversation used,
// from the usage the provider reported on the latest answer.
import type { ContextSnapshot } from "../generated/protocol";

export interface Meter {
  used: number | null;
  window: number;
  /** 0..1, or null when nothing was reported yet. */
  fraction: number | null;
  level: "ok" | "warn" | "full";
  label: string;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** Warn from 80 %, alarm from 92 % (where summaries will start). */
export function meter(snapshot: ContextSnapshot | null): Meter | null {
  const window = snapshot?.effective_model?.context_window;
  if (!snapshot || !window) return null;
  let used: number | null = null;
  for (let i = snapshot.messages.length - 1; i >= 0; i--) {
    const u = snapshot.messages[i].meta?.usage;
    if (u) {
      used = u.prompt_tokens + u.completion_tokens;
      break;
    }
  }
  if (used === null) return { used, window, fraction: null, level: "ok", label: `— / ${fmt(window)} tokens (not reported yet)` };
  const fraction = used / window;
  const level = fraction >= 0.92 ? "full" : fraction >= 0.8 ? "warn" : "ok";
  const pct = Math.round(fraction * 100);
  const warn = level === "full" ? " — near the limit" : level === "warn" ? " — getting full" : "";
  return { used, window, fraction, level, label: `${fmt(used)} / ${fmt(window)} tokens (${pct} %)${warn}` };
}
