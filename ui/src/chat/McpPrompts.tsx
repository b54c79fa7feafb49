import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { McpPromptInfo } from "../generated/protocol";

interface Props {
  backend: Backend;
  /** What the composer holds: `/` and a few letters opens the list. */
  text: string;
  /** Puts the filled-in prompt in the composer, to read before sending. */
  onFill: (text: string) => void;
}

/** The MCP servers' prompts as slash commands: typing `/` lists them
 *  (`/server:prompt`); choosing one asks for its arguments in a small
 *  form, and its text lands in the composer. */
export function McpPrompts({ backend, text, onFill }: Props) {
  const [prompts, setPrompts] = useState<McpPromptInfo[]>([]);
  const [chosen, setChosen] = useState<McpPromptInfo | null>(null);
  const [args, setArgs] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const typed = /^\/(\S*)$/.exec(text)?.[1] ?? null;
  const asking = typed !== null;
  useEffect(() => {
    if (!asking) return;
    let live = true;
    backend.listMcpPrompts().then((p) => live && setPrompts(p), () => live && setPrompts([]));
    return () => {
      live = false;
    };
  }, [backend, asking]);

  if (chosen) {
    const missing = chosen.arguments.filter((a) => a.required && !args[a.name]?.trim());
    const fill = () =>
      backend.getMcpPrompt(chosen.server, chosen.name, args).then(
        (t) => {
          setChosen(null);
          setError(null);
          onFill(t);
        },
        (e: Error) => setError(e.message),
      );
    return (
      <form className="prompt-form" aria-label={`Prompt ${chosen.name} of ${chosen.server}`} onSubmit={(e) => (e.preventDefault(), void fill())}
        onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), setChosen(null))}>
        <strong>/{chosen.server}:{chosen.name}</strong> {chosen.description ? <small>{chosen.description}</small> : null}
        {chosen.arguments.map((a, i) => (
          <label key={a.name}>
            {a.name}{a.required ? " *" : ""}
            <input autoFocus={i === 0} value={args[a.name] ?? ""} placeholder={a.description ?? ""} onChange={(e) => setArgs({ ...args, [a.name]: e.target.value })} />
          </label>
        ))}
        <div className="actions">
          <button type="submit" className="primary" disabled={missing.length > 0} title={missing.length ? `Needs ${missing.map((a) => a.name).join(", ")}` : "Put the prompt in the message box"}>Insert</button>
          <button type="button" onClick={() => setChosen(null)}>Cancel</button>
        </div>
        {error ? <small className="field-error" role="alert">{error}</small> : null}
      </form>
    );
  }
  if (!asking) return null;
  const q = (typed ?? "").toLowerCase();
  const shown = prompts.filter((p) => `${p.server}:${p.name}`.toLowerCase().includes(q)).slice(0, 8);
  if (shown.length === 0) return null;
  return (
    <ul className="file-picker prompt-picker" aria-label="MCP prompts">
      {shown.map((p) => (
        <li key={`${p.server}:${p.name}`}>
          <button type="button" onClick={() => (p.arguments.length ? (setArgs({}), setChosen(p)) : (setChosen(p), setArgs({})))}>
            /{p.server}:{p.name} {p.description ? <small>{p.description}</small> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
