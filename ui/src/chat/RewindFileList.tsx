import type { RewindFile } from "../generated/protocol";

const ACTION: Record<string, string> = { restore: "restored", remove: "removed", recreate: "written again" };

interface Props {
  files: RewindFile[];
  /** The user's changed files they chose to overwrite. */
  overwrite: string[];
  onToggle: (path: string, on: boolean) => void;
  label?: string;
}

/** The files a restore would write, each with its diff; a file the user
 *  changed since is flagged and kept unless ticked. Shared by the rewind
 *  and the switch of a branch with its files. */
export function RewindFileList({ files, overwrite, onToggle, label = "Files the rewind would write" }: Props) {
  return (
    <ul className="rewind-files" aria-label={label}>
      {files.map((f) => (
        <li key={f.path} className={f.changed_by_user ? "yours" : undefined}>
          <details>
            <summary>
              <code>{f.path}</code> — {ACTION[f.action]}
              {f.changed_by_user ? <strong> · you changed it since</strong> : null}
            </summary>
            {f.binary ? <p>Binary or too large to show.</p> : <pre className="diff">{f.diff || "(no textual change)"}</pre>}
          </details>
          {f.changed_by_user ? (
            <label>
              <input type="checkbox" checked={overwrite.includes(f.path)} onChange={(e) => onToggle(f.path, e.target.checked)} /> overwrite my changes
            </label>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
