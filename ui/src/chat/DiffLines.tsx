// A unified diff's lines, coloured by what each does: the write preview,
// a turn's hunks in its review.

/** `lines` of a unified diff (its `---`/`+++` header left out). */
export function DiffLines({ lines }: { lines: string[] }) {
  return (
    <pre>
      {lines.map((l, i) => (
        <span key={i} className={l.startsWith("+") ? "diff-line add" : l.startsWith("-") ? "diff-line del" : l.startsWith("@@") ? "diff-line hunk" : "diff-line"}>
          {l}
          {"\n"}
        </span>
      ))}
    </pre>
  );
}
