interface Props {
  /** The last request went without it, to fit the window. */
  leftOut: boolean;
  /** The user keeps it in what is sent. */
  kept: boolean;
  onKeep?: (keep: boolean) => void;
}

/** On a file chip or an image: whether the model saw it in the last
 *  request, and the choice to keep it in what is sent ahead of older
 *  messages. Says nothing while it was sent and is not kept. */
export function KeepMark({ leftOut, kept, onKeep }: Props) {
  if (!leftOut && !kept) {
    return onKeep ? (
      <button type="button" className="keep" onClick={() => onKeep(true)} title="Keep it in what is sent, ahead of older messages, while it fits">
        Keep in context
      </button>
    ) : null;
  }
  return (
    <span className={leftOut ? "keep-mark left-out" : "keep-mark"} data-testid={leftOut ? "left-out-mark" : "kept-mark"}>
      {leftOut ? "Left out of the last request to fit the window" : "Kept in context"}
      {onKeep ? (
        <button type="button" className="keep" onClick={() => onKeep(!kept)} title={kept ? "Let it be left out like any older message" : "Send it ahead of older messages while it fits"}>
          {kept ? "Stop keeping" : "Keep in context"}
        </button>
      ) : null}
    </span>
  );
}
