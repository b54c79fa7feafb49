// What the composer sends: plain text, or `/tool name text` to make the
// model call that tool first.

export interface Outgoing {
  text: string;
  forceTool: string | null;
}

export function parseComposer(input: string): Outgoing {
  const m = /^\/tool\s+([A-Za-z0-9_\-.]+)\s*([\s\S]*)$/.exec(input.trim());
  if (!m) return { text: input, forceTool: null };
  const text = m[2].trim() || `Use the ${m[1]} tool.`;
  return { text, forceTool: m[1] };
}

/** `/compact [what to keep]` and `/context`: about the window, not sent. */
export type WindowCommand = { kind: "compact"; instructions: string | null } | { kind: "context" };

export function parseWindowCommand(input: string): WindowCommand | null {
  const t = input.trim();
  if (/^\/context$/.test(t)) return { kind: "context" };
  const m = /^\/compact(?:\s+([\s\S]*))?$/.exec(t);
  if (!m) return null;
  return { kind: "compact", instructions: m[1]?.trim() || null };
}
