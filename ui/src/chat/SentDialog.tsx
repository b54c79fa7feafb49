import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, PromptPart, SentRequest } from "../generated/protocol";
import { copyText } from "../clipboard";
import { useModal } from "../useModal";
import { counted } from "../counted";

const PART_LABELS: Record<PromptPart, string> = {
  base: "Base prompt",
  branch_override: "The conversation's or branch's prompt (instead of the base prompt)",
  personal: "Your instructions (Settings)",
  untrusted: "Outside text is data (with tools, files and results)",
  role: "Role",
  mode: "Mode",
  workspace: "Workspace",
  instructions: "Project instructions",
  tools: "Tools",
  tool_examples: "Tool examples",
  file_changes: "Changed files",
  continuation: "Continuation",
  team: "Team member's instructions and task",
  sub_agent: "Sub-agent's task rules",
};

const sum = (xs: { tokens: number }[]) => xs.reduce((n, x) => n + x.tokens, 0);

/** "What the model sees": the conversation's last request exactly as it
 *  went to the model, part by part, with the tokens of each. */
export function SentDialog({ backend, id, onClose }: { backend: Backend; id: ContextId; onClose: () => void }) {
  const dialog = useModal();
  const [sent, setSent] = useState<SentRequest | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    let live = true;
    backend.getSentRequest(id).then(
      (s) => live && setSent(s),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [backend, id]);
  const approx = sent?.estimated ? "≈" : "";
  return (
    <dialog ref={dialog} className="sent-dialog" aria-labelledby="sent-title" onClose={onClose}>
      <h2 id="sent-title">What the model sees</h2>
      {error ? <p className="error" role="alert">{error}</p> : null}
      {sent === undefined && !error ? <p className="hint">Loading…</p> : null}
      {sent === null ? <p className="hint">Nothing was sent from this conversation since Braid started. Send a message, then look again.</p> : null}
      {sent ? (
        <>
          <p className="hint" data-testid="sent-summary">
            The last request, to {sent.provider} · {sent.model}, at {new Date(sent.sent_at).toLocaleTimeString()}: system prompt {approx}{sum(sent.system)} tokens, {counted(sent.messages.length, "message")} {approx}{sum(sent.messages)} tokens, {counted(sent.tools.length, "tool")} {approx}{sum(sent.tools)} tokens; answer up to {sent.max_tokens} tokens
            {sent.temperature !== null ? `, temperature ${sent.temperature}` : ""}
            {sent.left_out > 0 ? `. ${sent.left_out} older messages were left out to fit the window.` : "."}
            {sent.estimated ? " Counts are estimates (Braid does not have this model's tokenizer)." : ""}
          </p>
          <section aria-label="System prompt sent">
            <h3>System prompt</h3>
            {sent.system.length === 0 ? <p className="hint">None.</p> : null}
            {sent.system.map((p) => (
              <details key={p.part} open className="sent-part" data-part={p.part}>
                <summary>
                  {PART_LABELS[p.part]} <small>{approx}{p.tokens} tokens</small>
                </summary>
                <pre>{p.text}</pre>
              </details>
            ))}
          </section>
          <section aria-label="Messages sent">
            <h3>Messages, after fitting</h3>
            <ol className="sent-messages">
              {sent.messages.map((m) => (
                <li key={m.id} data-role={m.role}>
                  <span className="who">{m.role}</span> <small>{m.kind.replace("_", " ")} · {approx}{m.tokens} tokens</small>
                  <pre>{m.text}</pre>
                </li>
              ))}
            </ol>
          </section>
          <section aria-label="Tools sent">
            <h3>Tools{sent.tool_choice ? <small> (choice: {sent.tool_choice})</small> : null}</h3>
            {sent.tools.length === 0 ? <p className="hint">No tools went with this request.</p> : null}
            {sent.tools_dropped ? (
              <p className="hint" data-testid="tools-dropped">
                The server answered nothing with these tools offered, so Braid sent the same request again without them: the model saw no tools.
              </p>
            ) : null}
            {sent.tools_held_back.length ? (
              <p className="hint" data-testid="tools-held-back" title={sent.tools_held_back.join(", ")}>
                {counted(sent.tools_held_back.length, "tool")} held back: nothing in this turn called for them (tools go as the message
                needs). Name a file, a command or code to bring them in, or set Options → Tools to "always".
              </p>
            ) : null}
            <ul className="sent-tools">
              {sent.tools.map((t) => (
                <li key={t.name} title={t.description}>
                  <code>{t.name}</code> <small>{approx}{t.tokens} tokens</small>
                </li>
              ))}
            </ul>
          </section>
        </>
      ) : null}
      <div className="dialog-buttons">
        {sent ? (
          <button type="button" onClick={() => void copyText(JSON.stringify(sent, null, 2)).then(setCopied)}>
            {copied ? "Copied" : "Copy as JSON"}
          </button>
        ) : null}
        <button type="button" className="primary" onClick={() => dialog.current?.close()}>Close</button>
      </div>
    </dialog>
  );
}
