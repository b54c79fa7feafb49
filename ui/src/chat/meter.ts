// The context meter: how much of the model's window the conversation used,
// from the usage the provider reported on the latest answer.
import type { ContextSnapshot } from "../generated/protocol";
import { counted } from "../counted";

export interface Part {
  name: "system" | "tools" | "messages" | "reserved";
  tokens: number;
}

export interface Meter {
  /** Braid's own counts for the last request, split; empty before one. */
  parts: Part[];
  used: number | null;
  window: number;
  /** 0..1, or null when nothing was reported yet. */
  fraction: number | null;
  level: "ok" | "warn" | "full";
  label: string;
  /** Tools the last request did not offer: nothing called for them. */
  heldBack: number;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** Warn from 80 %, alarm from 92 % (where summaries will start). */
export function meter(snapshot: ContextSnapshot | null): Meter | null {
  const window = snapshot?.effective_model?.context_window;
  if (!snapshot || !window) return null;
  const c = snapshot.context;
  const parts: Part[] = c
    ? [
        { name: "system", tokens: c.system },
        { name: "tools", tokens: c.tools },
        { name: "messages", tokens: c.messages },
        { name: "reserved", tokens: c.reserved_output },
      ]
    : [];
  let used: number | null = null;
  for (let i = snapshot.messages.length - 1; i >= 0; i--) {
    const u = snapshot.messages[i].meta?.usage;
    if (u) {
      used = u.prompt_tokens + u.completion_tokens;
      break;
    }
  }
  // A reference the model did not see is said on the meter too.
  const refs = c?.left_out_references.length ?? 0;
  const note = refs ? ` · ${counted(refs, "reference")} left out` : "";
  const m = measure(snapshot, parts, used, window);
  return m && { ...m, label: m.label + note, heldBack: c?.tools_held_back.length ?? 0 };
}

function measure(snapshot: ContextSnapshot, parts: Part[], used: number | null, window: number): Omit<Meter, "heldBack"> {
  const c = snapshot.context;
  if (used === null && c) {
    // Nothing reported: Braid's own count of what it sent.
    used = c.system + c.tools + c.messages;
    const fraction = used / window;
    return { parts, used, window, fraction, level: levelOf(fraction), label: `${fmt(used)} / ${fmt(window)} tokens (${Math.round(fraction * 100)} %, ${c.estimated ? "estimated" : "counted"} by Braid)` };
  }
  if (used === null) return { parts, used, window, fraction: null, level: "ok", label: `— / ${fmt(window)} tokens (not reported yet)` };
  const fraction = used / window;
  const level = levelOf(fraction);
  const pct = Math.round(fraction * 100);
  const warn = level === "full" ? " — near the limit" : level === "warn" ? " — getting full" : "";
  return { parts, used, window, fraction, level, label: `${fmt(used)} / ${fmt(window)} tokens (${pct} %)${warn}` };
}

function levelOf(fraction: number): Meter["level"] {
  return fraction >= 0.92 ? "full" : fraction >= 0.8 ? "warn" : "ok";
}

/** "System 120 · Tools 364 · Messages 2,010 · Reserved for the answer 1,024". */
export function partsLabel(parts: Part[]): string {
  const names = { system: "System", tools: "Tools", messages: "Messages", reserved: "Reserved for the answer" };
  return parts.map((p) => `${names[p.name]} ${fmt(p.tokens)}`).join(" · ");
}
