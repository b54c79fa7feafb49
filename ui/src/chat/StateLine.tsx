import { useEffect, useState } from "react";
import { CONTINUABLE_NOTICES, type ContextStatus, type Notice } from "../generated/protocol";
import { describe } from "./describe";

/** Always says what is happening, in words, with numbers. */
interface Props {
  status: ContextStatus;
  notice: Notice | null;
  onRetry: () => void;
  /** Shown after the tool loop stopped (limit, repeat, interrupt). */
  onContinue?: () => void;
}

/** Notices shown elsewhere (the conversation list shows a new title) or
 *  not worth a word. */

/** A notice that only says again what the failure says. */
function repeats(status: ContextStatus, notice: Notice): boolean {
  return status.state === "failed" && status.message.includes(notice.message);
}

export function StateLine({ status, notice, onRetry, onContinue }: Props) {
  // A retry countdown has to tick on its own.
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (status.state !== "retrying_llm_request") return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [status.state]);
  return (
    <div className={`state-line state-${status.state}`} role="status" aria-live="polite">
      <span data-testid="state" title={status.state === "failed" ? status.message : undefined}>{describe(status, now)}</span>
      {notice && !repeats(status, notice) ? <span className="notice"> · {notice.message}</span> : null}
      {status.state === "failed" ? (
        <button type="button" className="retry" onClick={onRetry}>Retry</button>
      ) : null}
      {status.state === "idle" && notice && CONTINUABLE_NOTICES.includes(notice.code) && onContinue ? (
        <button type="button" className="retry" onClick={onContinue}>Continue</button>
      ) : null}
    </div>
  );
}
