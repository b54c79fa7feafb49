import { useEffect, useLayoutEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent, type ReactNode } from "react";
import type { ImageMode } from "../generated/protocol";
import { ImageIcon } from "../icons";
import { ACCEPTED, imageFiles, type Attachments } from "./attachments";
import { insertMention, mentionAt, type Typing } from "./mention";
import { insertNext, matching, nextAt, type NextTyping } from "../team/next";

interface Props {
  busy: boolean;
  onSend: (text: string) => void;
  /** Stop now and discard the unfinished answer. */
  onCancel: () => void;
  /** Stop, keeping what was written (an answer so far) or done (the
   *  running tool finishes). */
  onInterrupt?: () => void;
  /** What stopping means now: a tool runs ("tool") or not. */
  phase?: "answer" | "tool";
  /** Workspace files for the `@` picker. */
  findFiles?: (query: string) => Promise<string[]>;
  /** Text to put back (a sent message that was refused), once per nonce,
   *  if the box is empty: nothing typed is lost. */
  restore?: { text: string; nonce: number } | null;
  /** Images to send with the message (picked, pasted or dropped). */
  attachments?: Attachments;
  /** A team's members, offered when `[NEXT:` is typed. */
  members?: string[];
  /** Drawn above the box with what it holds (the MCP prompts' list). */
  above?: (text: string, setText: (text: string) => void) => ReactNode;
  /** The empty box got its first character: the answer is coming, what
   *  it needs can get ready while the rest is typed. */
  onWriting?: () => void;
}

/** Enter sends, Shift+Enter is a new line. While busy, Send becomes Stop
 *  (keeps the answer so far, or lets the running tool finish) and Discard
 *  (drops the unfinished answer); Esc stops, and a second Esc discards.
 *  What is sent while busy is queued visibly. Typing `@` opens a picker
 *  of workspace files (↑/↓, Enter or Tab to insert, Esc to close);
 *  `:12-40` after a path references those lines. In a team, `[NEXT:`
 *  offers the members the same way. */
export function Composer({ busy, onSend, onCancel, onInterrupt, phase = "answer", findFiles, members, restore, attachments, above, onWriting }: Props) {
  // Esc was pressed once in this busy spell: the next one discards.
  const stopped = useRef(false);
  useEffect(() => {
    if (!busy) stopped.current = false;
  }, [busy]);
  const [text, setText] = useState("");
  useEffect(() => {
    if (restore) setText((t) => (t.trim() ? t : restore.text));
  }, [restore]);
  const [typing, setTyping] = useState<Typing | null>(null);
  const [naming, setNaming] = useState<NextTyping | null>(null);
  const [files, setFiles] = useState<string[]>([]);
  const [active, setActive] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  // Where the caret goes once a completion's text is committed. Placed in a
  // layout effect, not a later frame: keys typed right after the choice
  // must land after the completion, not before it.
  const caretAfter = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (caretAfter.current === null) return;
    box.current?.setSelectionRange(caretAfter.current, caretAfter.current);
    caretAfter.current = null;
  });
  // A conversation opened (a new one with Ctrl+Shift+O too): type at once.
  useEffect(() => {
    box.current?.focus();
  }, []);

  useEffect(() => {
    if (!typing || !findFiles) {
      setFiles([]);
      return;
    }
    let live = true;
    const t = setTimeout(() => {
      findFiles(typing.query).then((f) => live && (setFiles(f), setActive(0)), () => live && setFiles([]));
    }, 80);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [typing, findFiles]);

  const picker = useRef<HTMLInputElement>(null);
  const [dropping, setDropping] = useState(false);
  const images = attachments?.pending ?? [];
  const ready = images.some((p) => p.stored);
  const canSend = (!!text.trim() || ready) && !attachments?.uploading;
  const send = () => {
    if (!canSend) return;
    onSend(text);
    setText("");
    setTyping(null);
    setNaming(null);
  };
  const named = naming && members ? matching(members, naming) : [];
  const options = named.length ? named : files;
  const choose = (path: string) => {
    const caret = box.current?.selectionStart ?? text.length;
    if (named.length && naming) {
      const next = insertNext(text, caret, naming, path);
      setText(next.text);
      setNaming(null);
      caretAfter.current = next.caret;
      return;
    }
    if (!typing) return;
    const next = insertMention(text, caret, typing, path);
    setText(next.text);
    setTyping(null);
    caretAfter.current = next.caret;
  };
  const picking = named.length > 0 || (typing !== null && files.length > 0);
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (!attachments) return;
    const pasted = imageFiles(e.clipboardData?.files);
    if (pasted.length) {
      e.preventDefault();
      attachments.add(pasted);
    } else if (!e.clipboardData?.types.length) {
      // No data at all in the event: the desktop window. Text still lands
      // by the default action; an image is fetched from the system.
      attachments.pasteFromSystem();
    }
  };
  const onDrop = (e: DragEvent) => {
    setDropping(false);
    // Every dropped file is answered: a non-image is refused with its name.
    const dropped = Array.from(e.dataTransfer?.files ?? []);
    if (!dropped.length || !attachments) return;
    e.preventDefault();
    e.stopPropagation();
    attachments.add(dropped);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (picking && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      setActive((a) => (a + (e.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
    } else if (picking && (e.key === "Enter" || e.key === "Tab")) {
      e.preventDefault();
      choose(options[Math.min(active, options.length - 1)]);
    } else if (picking && e.key === "Escape") {
      e.preventDefault();
      setTyping(null);
      setNaming(null);
    } else if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      send();
    } else if (e.key.toLowerCase() === "o" && (e.ctrlKey || e.metaKey) && !e.shiftKey && attachments) {
      // Ctrl+O: "open" images (Ctrl+Shift+U would collide with GTK's
      // Unicode entry in the desktop window).
      e.preventDefault();
      picker.current?.click();
    } else if (e.key === "Escape" && busy) {
      e.preventDefault();
      if (onInterrupt && !stopped.current) {
        stopped.current = true;
        onInterrupt();
      } else {
        onCancel();
      }
    }
  };
  return (
    <div
      className={`composer${dropping ? " dropping" : ""}`}
      onDragOver={(e) => {
        if (attachments && Array.from(e.dataTransfer?.types ?? []).includes("Files")) {
          e.preventDefault();
          setDropping(true);
        }
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
      data-testid="composer"
    >
      {images.length > 0 ? (
        <ul className="attachments" aria-label="Images to send">
          {images.map((p) => (
            <li key={p.key} className={p.error ? "failed" : ""} data-testid="attachment">
              {p.preview ? <img src={p.preview} alt={p.name} /> : <span className="thumb-placeholder" />}
              <span className="name" title={p.name}>{p.name}</span>
              {p.error ? (
                <span className="tool-error" role="alert">{p.error}</span>
              ) : p.stored ? (
                <select
                  aria-label={`How to read ${p.name}`}
                  value={p.mode}
                  onChange={(e) => attachments!.setMode(p.key, e.target.value as ImageMode)}
                >
                  <option value="auto">Auto</option>
                  <option value="vision">Vision</option>
                  <option value="ocr">OCR</option>
                </select>
              ) : (
                <span className="hint">Checking…</span>
              )}
              <button type="button" className="remove" aria-label={`Remove ${p.name}`} onClick={() => attachments!.remove(p.key)}>✕</button>
            </li>
          ))}
        </ul>
      ) : null}
      {picking ? (
        <ul className="file-picker" role="listbox" aria-label={named.length ? "Team members" : "Workspace files"}>
          {options.map((f, i) => (
            <li key={f} role="option" aria-selected={i === active} onMouseDown={(e) => (e.preventDefault(), choose(f))}>
              {f}
            </li>
          ))}
          <li className="hint" aria-disabled="true">{named.length ? "Enter hands the turn to this member" : "Enter inserts · add :12-40 for lines"}</li>
        </ul>
      ) : null}
      {above?.(text, (t) => {
        setText(t);
        box.current?.focus();
      })}
      <textarea
        ref={box}
        aria-label="Message"
        placeholder={busy ? "Braid is busy: Enter queues the message, Esc stops (keeping what was written), Esc again discards" : "Message (Enter sends, Shift+Enter new line, @ references a file, /tool name … makes the model use a tool; paste or drop images)"}
        value={text}
        onChange={(e) => {
          if (!text.trim() && e.target.value.trim()) onWriting?.();
          setText(e.target.value);
          const caret = e.target.selectionStart ?? e.target.value.length;
          setTyping(mentionAt(e.target.value, caret));
          const next = members?.length ? nextAt(e.target.value, caret) : null;
          setNaming(next);
          if (next) setActive(0);
        }}
        onKeyDown={onKey}
        onPaste={onPaste}
        rows={3}
      />
      {attachments ? (
        <>
          <button type="button" className="attach" title="Attach images (Ctrl+O), or paste or drop them here" aria-label="Attach images" onClick={() => picker.current?.click()}>
            <ImageIcon />
          </button>
          <input
            ref={picker}
            type="file"
            accept={ACCEPTED.join(",")}
            multiple
            hidden
            data-testid="image-picker"
            onChange={(e) => {
              attachments.add(Array.from(e.target.files ?? []));
              e.target.value = "";
            }}
          />
        </>
      ) : null}
      {busy ? (
        <>
          {onInterrupt ? (
            phase === "tool" ? (
              <button type="button" className="interrupt" onClick={onInterrupt} title="Let the running tool finish, then stop: nothing more runs (Esc)">
                Stop after this tool
              </button>
            ) : (
              <button type="button" className="interrupt" onClick={onInterrupt} title="Stop the answer and keep what was written; Continue lets the model go on (Esc)">
                Stop
              </button>
            )
          ) : null}
          <button type="button" className="cancel" onClick={onCancel} title="Stop now and discard the unfinished answer (Esc twice)">Discard</button>
        </>
      ) : (
        <button type="button" onClick={send} disabled={!canSend}>Send</button>
      )}
    </div>
  );
}
