import { useState } from "react";
import { FileIcon } from "../icons";
import { Markdown } from "../markdown/Markdown";
import { KeepMark } from "./KeepMark";
import { copyText } from "../clipboard";
import { MessageActions } from "./MessageActions";
import { ToolCard } from "./ToolCard";
import { describeSpeed } from "./describe";
import type { Item } from "./transcript";
import { Speaker } from "../team/Speaker";
import { counted } from "../counted";
import { SummaryCard, type SummaryActions } from "../context/SummaryCard";
import { VersionSwitch, type Versions } from "./VersionSwitch";

interface Props {
  item: Item;
  /** Fork a branch from this message (absent while busy). */
  onFork?: () => void;
  /** Let a cut or stopped answer go on (only the latest, while idle). */
  onContinue?: () => void;
  /** Take a merge back (absent while busy). */
  onUndoMerge?: (card: number) => void;
  /** Send this question again, edited, on a new branch (absent while busy). */
  onEdit?: (text: string) => void;
  /** Have this answer written again on a new branch (absent while busy). */
  onAgain?: () => void;
  /** Rewind the files and/or the conversation to this question (absent while busy). */
  onRewind?: () => void;
  /** Take a file restore back (absent while busy). */
  onUndoRestore?: (note: number) => void;
  /** Summarise up to / from this message (absent while busy). */
  onSummarize?: (from: boolean) => void;
  /** A summary's own actions (absent while busy). */
  summaryActions?: SummaryActions;
  /** Other versions of this message, on other branches. */
  versions?: Versions;
  /** A file reference: left out of the last request, kept by the user. */
  keep?: { leftOut: boolean; kept: boolean; onKeep?: (keep: boolean) => void };
  /** Let the model have a tool output kept from it (absent while busy). */
  onRelease?: (message: number) => void;
}

const STRATEGY_LABEL: Record<string, string> = {
  summary: "summary",
  fast_forward: "fast-forward",
  append: "append",
  cherry_pick: "cherry-pick",
  rebase: "rebase",
};

/** One stored message of the transcript, as the chat shows it. */
export function ItemView({ item, onFork, onContinue, onUndoMerge, onEdit, onAgain, onRewind, onUndoRestore, onSummarize, summaryActions, versions, keep, onRelease }: Props) {
  const [editing, setEditing] = useState<string | null>(null);
  const [raw, setRaw] = useState(false);
  if (item.kind === "text" && editing !== null && onEdit) {
    const send = () => {
      if (editing.trim()) onEdit(editing);
      setEditing(null);
    };
    return (
      <div className="message user editing">
        <span className="who">user</span>
        <textarea
          aria-label="Edited message"
          autoFocus
          value={editing}
          rows={Math.min(10, editing.split("\n").length + 1)}
          onChange={(e) => setEditing(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              send();
            }
            if (e.key === "Escape") setEditing(null);
          }}
        />
        <div className="edit-buttons">
          <button type="button" onClick={() => setEditing(null)}>Cancel</button>
          <button type="button" className="primary" onClick={send} title="The original stays: ‹ › on the message switches between the versions">Send as a new version</button>
        </div>
      </div>
    );
  }
  switch (item.kind) {
    case "text":
      return (
        <div
          className={`message ${item.role}`}
          tabIndex={0}
          onKeyDown={(e) => {
            // Keys of a focused message (not of a field or button in it).
            if (e.target !== e.currentTarget || e.ctrlKey || e.metaKey || e.altKey) return;
            const act: Record<string, (() => void) | undefined> = {
              c: () => void copyText(item.text),
              r: () => setRaw((r) => !r),
              f: item.role !== "system" ? onFork : undefined,
              e: onEdit && item.role === "user" ? () => setEditing(item.text) : undefined,
              a: item.role === "assistant" ? onAgain : undefined,
              w: item.role === "user" ? onRewind : undefined,
              s: onSummarize && item.role !== "system" ? () => onSummarize(false) : undefined,
              "[": versions?.onPrev,
              "]": versions?.onNext,
            };
            const run = act[e.key];
            if (run) {
              e.preventDefault();
              run();
            }
          }}
        >
          <Speaker role={item.role} author={item.author} />
          <MessageActions
            role={item.role}
            text={item.text}
            raw={raw}
            onRaw={() => setRaw((r) => !r)}
            onFork={onFork}
            onEdit={onEdit ? () => setEditing(item.text) : undefined}
            onAgain={onAgain}
            onRewind={onRewind}
            onSummarize={onSummarize}
          />
          {raw ? <pre className="raw-text" aria-label="Raw text">{item.text}</pre> : item.role === "assistant" ? <Markdown source={item.text} /> : <div className="text">{item.text}</div>}
          {versions ? <VersionSwitch v={versions} /> : null}
          {item.speed ? <small className="speed" data-testid="speed">{describeSpeed(item.speed)}</small> : null}
          {item.cut || item.stopped ? (
            <div
              className="cut-marker"
              data-testid={item.cut ? "cut-marker" : "stopped-marker"}
              title={item.cut ? "The answer reached the model's output limit; Continue lets it go on" : "You stopped this answer; Continue lets the model go on"}
            >
              {item.cut ? "Cut at the output limit" : "Stopped"}
              {onContinue ? (
                <button type="button" className="retry" onClick={onContinue}>
                  Continue
                </button>
              ) : null}
            </div>
          ) : null}
        </div>
      );
    case "tools":
      return (
        <div className="message assistant tools">
          <span className="who">assistant</span>
          {item.text ? <Markdown source={item.text} /> : null}
          {item.tools.map((t) => <ToolCard key={t.call.id} tool={t} onRelease={onRelease} />)}
          {versions ? <VersionSwitch v={versions} /> : null}
        </div>
      );
    case "system":
      return (
        <div className="message system">
          {item.text}
          {item.retry && onContinue ? (
            <button type="button" className="retry" onClick={onContinue}>
              Retry
            </button>
          ) : null}
        </div>
      );
    case "file":
      return (
        <div className={keep?.leftOut ? "file-row left-out" : "file-row"}>
          <details className="file-chip" data-testid="file-chip">
            <summary title="Show the referenced lines"><FileIcon /> {item.label}</summary>
            {item.error ? <div className="tool-error">{item.error}</div> : <pre>{item.content}</pre>}
          </details>
          {keep ? <KeepMark {...keep} /> : null}
        </div>
      );
    case "merge": {
      const r = item.record;
      const what = r.strategy === "summary" ? "its findings, summarised" : r.replayed ? `${counted(r.replayed, "turn")} answered again` : counted(r.brought.length, "message");
      return (
        <div className={`merge-card${item.undone ? " undone" : ""}`} data-testid="merge-card">
          <div className="merge-title">
            Merged <strong>{r.source_name}</strong> by {STRATEGY_LABEL[r.strategy]}: {what}
            {item.undone ? <em> — undone</em> : null}
            {!item.undone && onUndoMerge ? (
              <button type="button" className="retry" onClick={() => onUndoMerge(item.id)} title="Take this merge back: what it brought leaves the branch; the card stays in the history">
                Undo merge
              </button>
            ) : null}
          </div>
          {r.summary ? <Markdown source={r.summary} /> : null}
          {r.resolutions.length ? <div className="merge-resolutions">Resolved: {r.resolutions.map((c) => `${c.conflict} → ${c.resolution.replace("_", " ")}`).join("; ")}</div> : null}
        </div>
      );
    }
    case "restore":
      return (
        <div className={`restore-card${item.undone ? " undone" : ""}`} data-testid="restore-card">
          <span>
            {item.undoes ? "File restore undone" : item.changesOf ? "Changes undone" : "Files restored"}: {counted(item.files, "file")}
            {item.kept.length ? <> · kept as you changed them: {item.kept.join(", ")}</> : null}
            {item.undone ? <em> — undone</em> : null}
          </span>
          {!item.undone && !item.undoes && onUndoRestore ? (
            <button type="button" className="retry" onClick={() => onUndoRestore(item.id)} title="Put the files this restore wrote back as they were before it">
              Undo restore
            </button>
          ) : null}
        </div>
      );
    case "summary":
      return <SummaryCard item={item} actions={summaryActions} />;
  }
}
