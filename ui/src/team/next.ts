// The composer's member completion: typing `[NEXT:` offers the team's
// members, as `@` offers files.

export interface NextTyping {
  /** Index of the `[`. */
  start: number;
  query: string;
}

/** The `[NEXT:` marker being typed at the caret (any case), if any. */
export function nextAt(text: string, caret: number): NextTyping | null {
  const m = /\[NEXT:([^\]\s[]*)$/i.exec(text.slice(0, caret));
  if (!m) return null;
  return { start: caret - m[0].length, query: m[1] };
}

/** Members whose names start with what was typed (any case), in order. */
export function matching(members: string[], typing: NextTyping): string[] {
  const q = typing.query.toLowerCase();
  return members.filter((m) => m.toLowerCase().startsWith(q));
}

/** The text with the marker completed as `[NEXT:name] `, and the new caret. */
export function insertNext(text: string, caret: number, typing: NextTyping, name: string): { text: string; caret: number } {
  const inserted = `[NEXT:${name}] `;
  const rest = text.slice(caret).replace(/^[^\]\s]*\]\s?/, "");
  return { text: text.slice(0, typing.start) + inserted + rest, caret: typing.start + inserted.length };
}
