// Edits of the MCP settings file's text made from the panel's buttons:
// the file stays the user's (other keys, other apps' entries are kept),
// only the server named changes.

type Servers = Record<string, Record<string, unknown>>;

function parse(text: string): { file: Record<string, unknown>; servers: Servers } {
  const file = text.trim() ? (JSON.parse(text) as Record<string, unknown>) : {};
  const servers = (file.mcpServers ?? {}) as Servers;
  return { file: { ...file, mcpServers: servers }, servers };
}

/** The text with server `name` switched on or off. */
export function withDisabled(text: string, name: string, disabled: boolean): string {
  const { file, servers } = parse(text);
  const entry = { ...servers[name] };
  if (disabled) entry.disabled = true;
  else delete entry.disabled;
  return JSON.stringify({ ...file, mcpServers: { ...servers, [name]: entry } }, null, 2);
}

/** Braid's defaults: a server that sets one of these does not write it. */
export const DEFAULT_STARTUP_MS = 30_000;
export const DEFAULT_CALL_MS = 300_000;

/** The text with server `name`'s limits set (a default one left out). */
export function withLimits(text: string, name: string, startupMs: number, callMs: number): string {
  const { file, servers } = parse(text);
  const entry = { ...servers[name] };
  if (startupMs === DEFAULT_STARTUP_MS) delete entry.startupTimeoutMs;
  else entry.startupTimeoutMs = startupMs;
  if (callMs === DEFAULT_CALL_MS) delete entry.callTimeoutMs;
  else entry.callTimeoutMs = callMs;
  return JSON.stringify({ ...file, mcpServers: { ...servers, [name]: entry } }, null, 2);
}

/** The text without server `name`. */
export function without(text: string, name: string): string {
  const { file, servers } = parse(text);
  const rest = { ...servers };
  delete rest[name];
  return JSON.stringify({ ...file, mcpServers: rest }, null, 2);
}

/** The text with a new server to fill in, under a name not yet used. */
export function withExample(text: string): string {
  const { file, servers } = parse(text);
  let name = "new-server";
  for (let i = 2; name in servers; i++) name = `new-server-${i}`;
  const example = { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/path/to/folder"] };
  return JSON.stringify({ ...file, mcpServers: { ...servers, [name]: example } }, null, 2);
}
