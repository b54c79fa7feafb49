import { Fragment, useState } from "react";
import { BranchPrompt } from "../branches/BranchPrompt";
import type { BranchId, BranchSummary } from "../generated/protocol";
import { useConfirm } from "../confirm";
import { counted } from "../counted";
import { branchLabel, branchOrder } from "../branches/label";

interface Props {
  branches: BranchSummary[];
  active: BranchId;
  busy: boolean;
  onSwitch: (b: BranchId) => void;
  /** Switch with the branch's files (a preview first). */
  onSwitchWithFiles?: (b: BranchId) => void;
  onRename: (b: BranchId, name: string) => void;
  onPrompt: (b: BranchId, prompt: string | null) => void;
  onDelete: (b: BranchId) => void;
  /** Give the branch its own copy of the folder, or take it back. */
  onIsolate: (b: BranchId) => void;
  onRemoveCopy: (b: BranchId) => void;
  onGraph: () => void;
  onMerge: (source: BranchId) => void;
}

/** Past this many branches the menu offers a filter box. */
const FILTER_FROM = 8;

/** The conversation's branches: switch, rename, set a branch's own system
 *  prompt, give a fork its own copy of the folder, delete (not main, not
 *  the one in use). Forking is on each message. */
export function BranchControls({ branches, active, busy, onSwitch, onSwitchWithFiles, onRename, onPrompt, onDelete, onIsolate, onRemoveCopy, onGraph, onMerge }: Props) {
  const confirm = useConfirm();
  const [renaming, setRenaming] = useState<BranchId | null>(null);
  const [prompting, setPrompting] = useState<BranchId | null>(null);
  const [name, setName] = useState("");
  const [filter, setFilter] = useState("");
  const [leftSide, setLeftSide] = useState(false);
  const current = branches.find((b) => b.id === active);
  const listed = branchOrder(branches, filter, active);
  if (branches.length <= 1 && !renaming) {
    return null;
  }
  const save = (b: BranchId) => {
    if (name.trim()) onRename(b, name.trim());
    setRenaming(null);
  };
  return (
    <details
      className={`branches${leftSide ? " from-left" : ""}`}
      // Where the header wrapped the menu's button to the left, the menu
      // opens rightwards, over the chat rather than off the window.
      onToggle={(e) => {
        const r = e.currentTarget.getBoundingClientRect();
        setLeftSide(r.left + r.width / 2 < window.innerWidth / 2);
      }}
    >
      <summary title="Branches of this conversation">Branch: {(current ? branchLabel(current) : active)}</summary>
      <ul className="branches-panel" aria-label="Branches">
        {branches.length > FILTER_FROM ? (
          <li className="branch-filter">
            <input aria-label="Filter branches" placeholder={`Filter ${branches.length} branches`} value={filter} onChange={(e) => setFilter(e.target.value)} />
          </li>
        ) : null}
        {listed.map((b) => (
          <Fragment key={b.id}>
          <li className={b.id === active ? "active" : undefined}>
            {renaming === b.id ? (
              <input
                aria-label={`New name for ${branchLabel(b)}`}
                autoFocus
                value={name}
                maxLength={80}
                onChange={(e) => setName(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter") save(b.id);
                  if (e.key === "Escape") setRenaming(null);
                }}
                onBlur={() => save(b.id)}
              />
            ) : (
              <button type="button" className="branch-name" disabled={busy || b.id === active} onClick={() => onSwitch(b.id)} title={b.id === active ? "The branch in use" : `Switch to ${branchLabel(b)}`}>
                <span className={b.name ? undefined : "unnamed"}>{branchLabel(b)}</span> <small>{counted(b.message_count, "message")}</small>
              </button>
            )}
            {b.folder ? (
              <span className="copy-badge" title={`${branchLabel(b)} works in its own copy of the folder: ${b.folder}`}>
                own copy
              </span>
            ) : null}
            {/* A branch in a copy of its own has its files there. */}
            {b.id !== active && onSwitchWithFiles && !b.folder && !current?.folder ? (
              <button type="button" className="icon" aria-label={`Switch to ${branchLabel(b)} with its files`} title={`Switch to ${branchLabel(b)} and put the files back as they were there`} disabled={busy} onClick={() => onSwitchWithFiles(b.id)}>⇆</button>
            ) : null}
            {b.id !== active ? (
              <button type="button" className="icon" aria-label={`Merge ${branchLabel(b)} into ${(current ? branchLabel(current) : active)}`} title={`Merge ${branchLabel(b)} into the branch in use`} disabled={busy} onClick={() => onMerge(b.id)}>⤵</button>
            ) : null}
            {b.id !== "main" ? (
              <button
                type="button"
                className={b.folder ? "icon set" : "icon"}
                aria-label={b.folder ? `Remove ${branchLabel(b)}'s own copy` : `Give ${branchLabel(b)} its own copy of the folder`}
                title={
                  b.folder
                    ? `Remove ${branchLabel(b)}'s copy (${b.folder}): it works in the conversation's folder again`
                    : `Give ${branchLabel(b)} its own copy of the folder (a git worktree in a repository): its tools work there, beside the other branches`
                }
                disabled={busy && b.id === active}
                onClick={() => (b.folder ? onRemoveCopy(b.id) : onIsolate(b.id))}
              >
                ❐
              </button>
            ) : null}
            <button type="button" className="icon" aria-label={`Rename ${branchLabel(b)}`} onClick={() => { setName(b.name); setRenaming(b.id); }}>✎</button>
            <button
              type="button"
              className={b.system_prompt ? "icon set" : "icon"}
              aria-label={`System prompt of ${branchLabel(b)}`}
              aria-expanded={prompting === b.id}
              title={b.system_prompt ? `${branchLabel(b)} has its own system prompt: ${b.system_prompt.slice(0, 120)}` : `Give ${branchLabel(b)} its own system prompt`}
              onClick={() => setPrompting((p) => (p === b.id ? null : b.id))}
            >
              ¶
            </button>
            <button
              type="button"
              className="icon delete"
              aria-label={`Delete ${branchLabel(b)}`}
              disabled={b.id === "main" || b.id === active}
              title={b.id === "main" ? "main cannot be deleted" : b.id === active ? "Switch to another branch to delete this one" : `Delete ${branchLabel(b)}`}
              onClick={() => void confirm({ title: "Delete the branch?", message: `Delete the branch "${branchLabel(b)}"? Messages other branches share stay.`, confirm: "Delete", danger: true }).then((yes) => yes && onDelete(b.id))}
            >
              ×
            </button>
          </li>
          {prompting === b.id ? (
            <li className="prompt-row">
              <BranchPrompt branch={b} onSave={(p) => onPrompt(b.id, p)} onClose={() => setPrompting(null)} />
            </li>
          ) : null}
          </Fragment>
        ))}
        <li>
          <button type="button" className="link" onClick={onGraph} title="The history graph of every branch (Ctrl+Shift+H)">History graph</button>
        </li>
      </ul>
    </details>
  );
}
