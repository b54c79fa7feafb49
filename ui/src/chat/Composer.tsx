import { useState, type KeyboardEvent } from "react";

interface Props {
  busy: boolean;
  onSend: (text: string) => void;
  onCancel: () => void;
}

/** Enter sends, Shift+Enter is a new line, Esc cancels; while busy, Send
 *  becomes Cancel and what is sent is queued visibly. */
export function Composer({ busy, onSend, onCancel }: Props) {
  const [text, setText] = useState("");
  const send = () => {
    if (!text.trim()) return;
    onSend(text);
    setText("");
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      send();
    } else if (e.key === "Escape" && busy) {
      e.preventDefault();
      onCancel();
    }
  };
  return (
    <div className="composer">
      <textarea
        aria-label="Message"
        placeholder={busy ? "Braid is busy: Enter queues the message, Esc cancels" : "Message (Enter sends, Shift+Enter new line, /tool name … makes the model use a tool)"}
        value={text}
        onChange={(e) => setText(e.target.value)}
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
