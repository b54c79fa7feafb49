import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { McpResourceTemplate } from "../generated/protocol";
import { expandTemplate, unfilledTemplate } from "./mcpPicker";

interface Props {
  backend: Backend;
  text: string;
  /** Replaces the composer's text (the template filled in). */
  onFill: (text: string) => void;
}

/** A resource template chosen in the `@` picker (`@server:…{var}…`) is
 *  filled in here: a field per variable, and the mention becomes the
 *  resource's URI. Until then the message would name no resource. */
export function McpTemplateForm({ backend, text, onFill }: Props) {
  const [templates, setTemplates] = useState<McpResourceTemplate[]>([]);
  const [values, setValues] = useState<Record<string, string>>({});
  const braced = /@\S*\{/.test(text);
  useEffect(() => {
    if (!braced) return;
    let live = true;
    backend.listMcpTemplates().then((t) => live && setTemplates(t), () => live && setTemplates([]));
    return () => {
      live = false;
    };
  }, [backend, braced]);
  const found = braced ? unfilledTemplate(text, templates) : null;
  if (!found) return null;
  const { template, start, token } = found;
  const missing = template.variables.filter((v) => !values[v]?.trim());
  const fill = () => {
    const uri = expandTemplate(template.uri_template, values);
    onFill(text.slice(0, start) + `@${template.server}:${uri}` + text.slice(start + token.length));
    setValues({});
  };
  return (
    <form className="prompt-form" aria-label={`Resource ${template.name} of ${template.server}`} onSubmit={(e) => (e.preventDefault(), fill())}>
      <strong>{template.name}</strong> <small>{template.description ?? template.uri_template}</small>
      {template.variables.map((v, i) => (
        <label key={v}>
          {v}
          <input autoFocus={i === 0} value={values[v] ?? ""} onChange={(e) => setValues({ ...values, [v]: e.target.value })} />
        </label>
      ))}
      <div className="actions">
        <button type="submit" className="primary" disabled={missing.length > 0} title={missing.length ? `Needs ${missing.join(", ")}` : "Name this resource in the message"}>
          Fill in
        </button>
      </div>
    </form>
  );
}
