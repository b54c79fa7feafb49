// What the first screen needs is asked for as the page's script starts,
// all at once: the conversation list, the settings, and the conversation
// shown last time. Asked as each part of the page mounted, they came one
// after another (the conversation only once the list had come), and that
// wait was most of the time between the page's start and its first screen
// (docs/PERFORMANCE.md). Each early answer is taken once; every later load
// asks the backend.
import type { Backend } from "./backend/types";
import type { ContextId, ContextSnapshot, ContextSummary, SettingsView } from "./generated/protocol";

const LAST_SHOWN = "braid.last-conversation";

interface Early {
  list?: Promise<ContextSummary[]>;
  settings?: Promise<SettingsView>;
  snapshot?: { id: ContextId; answer: Promise<ContextSnapshot> };
}

let early: Early = {};

export function askEarly(backend: Backend) {
  const last = lastShown();
  early = {
    list: backend.listContexts(),
    settings: backend.getSettings(),
    snapshot: last ? { id: last, answer: backend.loadContext(last) } : undefined,
  };
  // Whoever takes an answer handles its failure; one nobody takes is dropped.
  for (const p of [early.list, early.settings, early.snapshot?.answer]) p?.catch(() => undefined);
}

export function takeList(): Promise<ContextSummary[]> | undefined {
  const p = early.list;
  early.list = undefined;
  return p;
}

export function takeSettings(): Promise<SettingsView> | undefined {
  const p = early.settings;
  early.settings = undefined;
  return p;
}

/** The early snapshot of `id`, if that is the conversation asked for. */
export function takeSnapshot(id: ContextId): Promise<ContextSnapshot> | undefined {
  const s = early.snapshot;
  if (s?.id !== id) return undefined;
  early.snapshot = undefined;
  return s.answer;
}

/** The conversation shown when the page was last open (this browser or
 *  window), which opens again. */
export function lastShown(): ContextId | null {
  try {
    return localStorage.getItem(LAST_SHOWN);
  } catch {
    return null;
  }
}

export function rememberShown(id: ContextId | null) {
  try {
    if (id) localStorage.setItem(LAST_SHOWN, id);
    else localStorage.removeItem(LAST_SHOWN);
  } catch {
    // Storage refused (private mode): the most recent conversation opens.
  }
}
