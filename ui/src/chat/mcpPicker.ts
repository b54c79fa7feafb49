// MCP resources in the `@` picker: typed as `@server:uri`, found by the
// server's name, the resource's name or its URI. Resource templates are
// offered the same way; one chosen is filled in by a small form
// (McpTemplateForm) that expands its variables here.
import type { McpResourceInfo, McpResourceTemplate } from "../generated/protocol";

/** At most this many resources are offered at once. */
const SHOWN = 8;

interface Offer {
  server: string;
  uri: string;
  name: string;
}

/** The `server:uri` of the resources and templates `query` finds, best
 *  first: a server named by the query's start, then a name or URI holding
 *  it; resources before templates. */
export function resourceMatches(resources: McpResourceInfo[], query: string, templates: McpResourceTemplate[] = []): string[] {
  const q = query.toLowerCase();
  const offers: Offer[] = [...resources, ...templates.map((t) => ({ server: t.server, uri: t.uri_template, name: t.name }))];
  const key = (r: Offer) => `${r.server}:${r.uri}`;
  const scored = offers
    .map((r) => {
      const k = key(r).toLowerCase();
      if (!q) return { r, score: 2 };
      if (k.startsWith(q)) return { r, score: 0 };
      if (r.name.toLowerCase().includes(q) || k.includes(q)) return { r, score: 1 };
      return null;
    })
    .filter((x): x is { r: Offer; score: number } => x !== null);
  scored.sort((a, b) => a.score - b.score);
  return scored.slice(0, SHOWN).map((x) => key(x.r));
}

/** The first `@server:uri` in `text` that is one of `templates` not yet
 *  filled in, with where it starts. */
export function unfilledTemplate(text: string, templates: McpResourceTemplate[]): { template: McpResourceTemplate; start: number; token: string } | null {
  for (const m of text.matchAll(/(^|\s)@([A-Za-z0-9_-]+):(\S*\{[^}\s]+\}\S*)/g)) {
    const template = templates.find((t) => t.server === m[2] && t.uri_template === m[3]);
    if (template) return { template, start: m.index + m[1].length, token: `@${m[2]}:${m[3]}` };
  }
  return null;
}

const unreserved = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const reserved = (v: string) => encodeURI(v);

/** Expands an RFC 6570 URI template (levels 1–3: `{x}`, `{+x}`, `{#x}`,
 *  `{.x}`, `{/x}`, `{;x}`, `{?x,y}`, `{&x}`); values left empty are left
 *  out where the form allows. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^}]*)\}/g, (_, op: string, list: string) => {
    const names = list.split(",").map((v) => v.replace(/\*$/, "").split(":")[0]);
    const enc = op === "+" || op === "#" ? reserved : unreserved;
    // `?`, `&` and `;` name each value and leave empty ones out; the
    // others give values only.
    const named = op !== "" && "?&;".includes(op);
    const given = named ? names.filter((n) => (values[n] ?? "") !== "") : names;
    const parts = given.map((n) => {
      const v = enc(values[n] ?? "");
      return named ? `${n}=${v}` : v;
    });
    if (parts.length === 0) return "";
    switch (op) {
      case "":
      case "+":
        return parts.join(",");
      case "#":
        return `#${parts.join(",")}`;
      case ".":
        return `.${parts.join(".")}`;
      case "/":
        return `/${parts.join("/")}`;
      case ";":
        return `;${parts.join(";")}`;
      case "?":
        return `?${parts.join("&")}`;
      default:
        return `&${parts.join("&")}`;
    }
  });
}
