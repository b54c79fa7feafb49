// The `@` picker's text handling: finding the mention being typed at the
// caret, and putting the chosen path in its place.

export interface Typing {
  /** Index of the `@`. */
  start: number;
  query: string;
}

/** The mention the caret is in: `@` at the start or after white space,
 *  then no spaces up to the caret. */
export function mentionAt(text: string, caret: number): Typing | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return null;
  const query = m[2];
  if (/:\d/.test(query)) return null; // typing a line range: the path is chosen
  return { start: caret - query.length - 1, query };
}

/** The text with the mention replaced by `@path `, and the new caret. */
export function insertMention(text: string, caret: number, typing: Typing, path: string): { text: string; caret: number } {
  const inserted = `@${path} `;
  const next = text.slice(0, typing.start) + inserted + text.slice(caret);
  return { text: next, caret: typing.start + inserted.length };
}
