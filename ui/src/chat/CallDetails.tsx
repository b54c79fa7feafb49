import { DiffLines } from "./DiffLines";
import type { ToolCall, WritePreview } from "../generated/protocol";

/** A pending call's arguments as a form (name, value), not raw JSON; a
 *  command with the folder it runs in; a write with its diff. */
export function CallDetails({ call, folder, preview }: { call: ToolCall; folder?: string; preview?: WritePreview }) {
  const args = parse(call.arguments);
  if (args === null) return <pre>{call.arguments}</pre>;
  const shown = preview && !preview.problem ? Object.entries(args).filter(([k]) => k === "path") : Object.entries(args);
  return (
    <>
      <dl className="call-args">
        {shown.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{typeof value === "string" && (value.includes("\n") || value.length > 80) ? <pre>{value}</pre> : <code>{typeof value === "string" ? value : JSON.stringify(value)}</code>}</dd>
          </div>
        ))}
        {call.name === "run_command" && folder ? (
          <div>
            <dt>in</dt>
            <dd><code>{folder}</code></dd>
          </div>
        ) : null}
      </dl>
      {preview ? <Diff preview={preview} /> : null}
    </>
  );
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The change a write would make, line by line, or why it would fail. */
function Diff({ preview }: { preview: WritePreview }) {
  if (preview.problem) return <div className="tool-error">{preview.problem}</div>;
  const lines = preview.diff.split("\n").filter((l) => l !== "" && !l.startsWith("---") && !l.startsWith("+++"));
  return (
    <div className="diff" data-testid="write-diff">
      <div className="diff-title">{preview.new_file ? `New file ${preview.path}` : `Changes to ${preview.path}`}</div>
      {lines.length === 0 ? (
        <div className="diff-line">No change</div>
      ) : (
        <DiffLines lines={lines} />
      )}
    </div>
  );
}
