import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { insertMention, mentionAt, type Typing } from "./mention";

interface Props {
  busy: boolean;
  onSend: (text: string) => void;
  onCancel: () => void;
  /** Workspace files for the `@` picker. */
  findFiles?: (query: string) => Promise<string[]>;
  /** Text to put back (a sent message that was refused), once per nonce,
   *  if the box is empty: nothing typed is lost. */
  restore?: { text: string; nonce: number } | null;
}

/** Enter sends, Shift+Enter is a new line, Esc cancels; while busy, Send
 *  becomes Cancel and what is sent is queued visibly. Typing `@` opens a
 *  picker of workspace files (↑/↓, Enter or Tab to insert, Esc to close);
 *  `:12-40` after a path references those lines. */
export function Composer({ busy, onSend, onCancel, findFiles, restore }: Props) {
  const [text, setText] = useState("");
  useEffect(() => {
    if (restore) setText((t) => (t.trim() ? t : restore.text));
  }, [restore]);
  const [typing, setTyping] = useState<Typing | null>(null);
  const [files, setFiles] = useState<string[]>([]);
  const [active, setActive] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);

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

  const send = () => {
    if (!text.trim()) return;
    onSend(text);
    setText("");
    setTyping(null);
  };
  const choose = (path: string) => {
    const caret = box.current?.selectionStart ?? text.length;
    if (!typing) return;
    const next = insertMention(text, caret, typing, path);
    setText(next.text);
    setTyping(null);
    requestAnimationFrame(() => box.current?.setSelectionRange(next.caret, next.caret));
  };
  const picking = typing !== null && files.length > 0;
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (picking && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      setActive((a) => (a + (e.key === "ArrowDown" ? 1 : files.length - 1)) % files.length);
    } else if (picking && (e.key === "Enter" || e.key === "Tab")) {
      e.preventDefault();
      choose(files[active]);
    } else if (picking && e.key === "Escape") {
      e.preventDefault();
      setTyping(null);
    } else if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      send();
    } else if (e.key === "Escape" && busy) {
      e.preventDefault();
      onCancel();
    }
  };
  return (
    <div className="composer">
      {picking ? (
        <ul className="file-picker" role="listbox" aria-label="Workspace files">
          {files.map((f, i) => (
            <li key={f} role="option" aria-selected={i === active} onMouseDown={(e) => (e.preventDefault(), choose(f))}>
              {f}
            </li>
          ))}
          <li className="hint" aria-disabled="true">Enter inserts · add :12-40 for lines</li>
        </ul>
      ) : null}
      <textarea
        ref={box}
        aria-label="Message"
        placeholder={busy ? "Braid is busy: Enter queues the message, Esc cancels" : "Message (Enter sends, Shift+Enter new line, @ references a file, /tool name … makes the model use a tool)"}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setTyping(mentionAt(e.target.value, e.target.selectionStart ?? e.target.value.length));
        }}
        onKeyDown={onKey}
        rows={3}
      />
      {busy ? (
        <button type="button" className="cancel" onClick={onCancel}>Cancel</button>
      ) : (
        <button type="button" onClick={send} disabled={!text.trim()}>Send</button>
      )}
    </div>
  );
}
