import type { FileInPlay } from "../generated/protocol";

/** The files the agent read or wrote, most recent first, each with how it
 *  changed outside Braid since (live, or while Braid was closed). */
export function FilesPanel({ files }: { files: FileInPlay[] }) {
  if (files.length === 0) return null;
  const changed = files.filter((f) => f.state !== "fresh");
  return (
    <details className="files-panel" data-testid="files-in-play">
      <summary>
        Files in play ({files.length})
        {changed.length > 0 ? <span className="badge warn">{changed.every((f) => f.while_closed) ? "changed while Braid was closed" : "changed outside"}</span> : null}
      </summary>
      <ul>
        {files.map((f) => (
          <li key={f.path}>
            {f.path}
            <FileBadge file={f} />
          </li>
        ))}
      </ul>
    </details>
  );
}

function FileBadge({ file }: { file: FileInPlay }) {
  if (file.state === "fresh") return null;
  const what = file.state === "deleted" ? "deleted" : "changed";
  const text = file.while_closed ? `${what} while Braid was closed` : file.state === "deleted" ? "deleted" : "changed outside Braid";
  return (
    <span className="badge warn" title="The model is told before its next request; it must read the file again before writing it.">
      {text}
    </span>
  );
}
