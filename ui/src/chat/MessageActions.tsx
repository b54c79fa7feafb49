import { useEffect, useState } from "react";
import { copyText } from "../clipboard";
import { CopyIcon, ForkIcon } from "../icons";

interface Props {
  role: "user" | "assistant" | "system";
  text: string;
  raw: boolean;
  onRaw: () => void;
  onFork?: () => void;
  onEdit?: () => void;
  onAgain?: () => void;
  onRewind?: () => void;
  /** Summarise the conversation up to / from this message (with a preview). */
  onSummarize?: (from: boolean) => void;
}

/** What a message's keys do while it has the focus (Tab reaches it). */
export const MESSAGE_KEYS: Record<string, string> = {
  c: "copy it as Markdown",
  r: "show the raw text, or the formatted one again",
  f: "fork a branch from here",
  e: "edit a question and send it again as a new version",
  a: "have an answer written again as a new version",
  "[ ]": "the previous / next version of an edited question or an answer written again",
  w: "rewind the files and the conversation to a question (Esc Esc: the last one)",
  s: "summarise the conversation up to here (a preview first)",
};

/** The buttons on a message, shown on hover and while it has the focus:
 *  copy (as Markdown), raw text, fork, edit, answer again. */
export function MessageActions({ role, text, raw, onRaw, onFork, onEdit, onAgain, onRewind, onSummarize }: Props) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const t = setTimeout(() => setCopied(null), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  const copy = () =>
    void copyText(text).then((ok) => {
      setCopied(ok ? "yes" : "no");
      // Without the clipboard, the raw text is there to select by hand.
      if (!ok && !raw) onRaw();
    });
  return (
    <div className="actions">
      <button type="button" className="fork" aria-label="Copy as Markdown" title={copied === "no" ? "The clipboard is not available here: select the raw text" : "Copy the message as Markdown (c)"} onClick={copy}>
        {copied === "yes" ? "✓" : <CopyIcon />}
      </button>
      <button type="button" className="fork" aria-label={raw ? "Show formatted" : "Show raw text"} aria-pressed={raw} title={raw ? "Show it formatted (r)" : "Show the raw text (r)"} onClick={onRaw}>
        {"</>"}
      </button>
      {onFork && role !== "system" ? (
        <button type="button" className="fork" aria-label="Fork from here" title="Fork: a new branch with everything up to this message (f)" onClick={onFork}>
          <ForkIcon />
        </button>
      ) : null}
      {onEdit && role === "user" ? (
        <button type="button" className="fork" aria-label="Edit and send again" title="Edit: send it again, changed, as a new version; the original stays (e)" onClick={onEdit}>
          ✎
        </button>
      ) : null}
      {onRewind && role === "user" ? (
        <button type="button" className="fork" aria-label="Rewind to here" title="Rewind: the files and/or the conversation back to when this was sent, with a preview first (w)" onClick={onRewind}>
          ⟲
        </button>
      ) : null}
      {onAgain && role === "assistant" ? (
        <button type="button" className="fork" aria-label="Answer again" title="Answer again: a new version of the answer; this one stays (a)" onClick={onAgain}>
          ↻
        </button>
      ) : null}
      {onSummarize && role !== "system" ? (
        <>
          <button type="button" className="fork" aria-label="Σ↑ Summarise up to here" title="Summarise everything up to here; you see the summary before it replaces anything (s)" onClick={() => onSummarize(false)}>
            Σ↑
          </button>
          <button type="button" className="fork" aria-label="Σ↓ Summarise from here" title="Summarise from here to the end; you see the summary before it replaces anything" onClick={() => onSummarize(true)}>
            Σ↓
          </button>
        </>
      ) : null}
      {copied ? <span className="sr-only" role="status">{copied === "yes" ? "Copied" : "The clipboard is not available"}</span> : null}
    </div>
  );
}
