import { useState } from "react";
import type { McpSecret } from "../generated/protocol";

interface Props {
  secrets: McpSecret[];
  /** A value to keep, or null to remove it. */
  onSet: (name: string, value: string | null) => void;
}

/** The secrets the settings name as `${secret:NAME}`: whether each is set,
 *  and a field to set it. Values go to the keychain and never come back. */
export function McpSecrets({ secrets, onSet }: Props) {
  const [values, setValues] = useState<Record<string, string>>({});
  if (secrets.length === 0) return null;
  return (
    <section className="mcp-secrets" aria-label="MCP secrets">
      <h3>Secrets</h3>
      <p className="hint">
        Named in the settings as <code>{"${secret:NAME}"}</code> in a server's <code>env</code> or <code>headers</code>; kept in the system keychain.
      </p>
      <ul>
        {secrets.map((s) => (
          <li key={s.name}>
            <form onSubmit={(e) => (e.preventDefault(), onSet(s.name, values[s.name] ?? ""), setValues({ ...values, [s.name]: "" }))}>
              <code>{s.name}</code> <span className={`badge ${s.set ? "mcp-ready" : "mcp-failed"}`}>{s.set ? "set" : "not set"}</span>
              <input type="password" autoComplete="off" aria-label={`Value of ${s.name}`} placeholder={s.set ? "a new value" : "its value"}
                value={values[s.name] ?? ""} onChange={(e) => setValues({ ...values, [s.name]: e.target.value })} />
              <button type="submit" disabled={!values[s.name]?.trim()}>Set</button>
              {s.set ? <button type="button" className="danger" onClick={() => onSet(s.name, null)}>Remove</button> : null}
            </form>
          </li>
        ))}
      </ul>
    </section>
  );
}
