// What the chat shows for the stored messages: text as it is, a tool
// request as one card per call with its result folded in, system messages
// as one line. Pure, so the pairing is tested.
import type { AnswerSpeed, MergeRecord, Message, ToolCall, WithheldOutput } from "../generated/protocol";
import { counted } from "../counted";

export interface ToolView {
  call: ToolCall;
  /** The result, once there is one. */
  result: Extract<Message["body"], { type: "tool_result" }> | null;
  /** The result's output, kept from the model (the call used a secret):
   *  its message, for the user to read and release. */
  withheld?: { message: number; held: WithheldOutput };
}

export type Item =
  | { key: string; kind: "text"; role: "user" | "assistant" | "system"; text: string; cut?: boolean; stopped?: boolean; speed?: AnswerSpeed; author?: string }
  | { key: string; kind: "summary"; id: number; count: number; text: string; inForce: boolean }
  | { key: string; kind: "file"; label: string; content: string | null; error: string | null }
  | { key: string; kind: "tools"; text: string | null; tools: ToolView[] }
  | { key: string; kind: "system"; text: string; retry?: boolean }
  | { key: string; kind: "merge"; id: number; record: MergeRecord; undone: boolean }
  | { key: string; kind: "restore"; id: number; files: number; kept: string[]; undoes: number | null; undone: boolean; changesOf: number | null }
  | { key: string; kind: "image"; id: number; image: ImageBody };

export type ImageBody = Extract<Message["body"], { type: "image" }>;

/** A crash took the answer to the message before `m` (its partial answer
 *  is not kept): Retry asks again. */
function unanswered(messages: Message[], m: Message): boolean {
  const before = messages[messages.indexOf(m) - 1];
  return before !== undefined && before.body.type !== "system_control" && !(before.body.type === "text" && before.body.role === "assistant");
}

export function systemText(m: Message): string {
  if (m.body.type !== "system_control") return "";
  const c = m.body.control;
  switch (c.kind) {
    case "mode_change": return `Switched to ${c.mode === "plan" ? "Plan" : "Act"} mode`;
    case "branch_switch": return `Switched branch`;
    case "summary": return `Earlier messages summarised: ${c.text}`;
    case "recovery": return `Recovered after a crash: ${c.detail}`;
    case "notice": return c.text;
    case "merge": return `Merged ${c.record.source_name} (${c.record.strategy.replace("_", "-")})`;
    case "merge_undone": return "Merge undone";
    case "summary_undone": return "Summary taken back: its messages are sent again";
    case "files_restored": return c.undoes ? `File restore undone: ${c.files} files` : c.changes_of ? `Changes undone: ${c.files} files` : `Files restored: ${c.files}`;
    case "workflow": {
      const args = Object.entries(c.arguments).map(([k, v]) => `${k}=${v}`).join(", ");
      const o = c.outcome;
      const how = !o
        ? "running…"
        : o.status === "completed"
          ? `completed${o.tool_results ? `, ${counted(o.tool_results, "tool result")}` : ""}`
          : o.status === "failed"
            ? `failed: ${o.error ?? "unknown error"}`
            : "cancelled";
      return `Workflow /${c.name}${args ? ` (${args})` : ""}: ${how}`;
    }
  }
}

interface Summary {
  id: number;
  text: string;
  replaces: number[];
}

/** The summaries in force, newest first, as the core decides what is sent
 *  (`prompt/summaries.rs`): not taken back, and not wholly covered by a
 *  newer one. */
export function standingSummaries(messages: Message[]): Summary[] {
  const undone = new Set<number>();
  for (const m of messages) if (m.body.type === "system_control" && m.body.control.kind === "summary_undone") undone.add(m.body.control.summary);
  const covered = new Set<number>();
  const out: Summary[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.body.type !== "system_control" || m.body.control.kind !== "summary" || undone.has(m.id)) continue;
    const { text, replaces } = m.body.control;
    if (replaces.length === 0 || replaces.every((id) => covered.has(id))) continue;
    for (const id of replaces) covered.add(id);
    out.push({ id: m.id, text, replaces });
  }
  return out;
}

/** With `full`, every stored message; otherwise the latest summary stands
 *  where the messages it replaced were (they stay stored). */
export function transcript(messages: Message[], full = true): Item[] {
  const standing = standingSummaries(messages);
  // Where each summary in force stands in the summarised view: at the
  // first message it replaced.
  const placeAt = new Map<number, Summary[]>();
  const replaced = new Set<number>();
  const owners = new Map<number, Summary[]>();
  for (const s of standing) {
    for (const id of s.replaces) {
      replaced.add(id);
      owners.set(id, [...(owners.get(id) ?? []), s]);
    }
  }
  const placedSummaries = new Set<number>();
  for (const m of messages) {
    for (const s of owners.get(m.id) ?? []) {
      if (placedSummaries.has(s.id)) continue;
      placedSummaries.add(s.id);
      placeAt.set(m.id, [...(placeAt.get(m.id) ?? []), s]);
    }
  }
  const inForce = new Set(standing.map((s) => s.id));
  const summaryItem = (s: Summary): Item => ({ key: `m${s.id}`, kind: "summary", id: s.id, count: s.replaces.length, text: s.text, inForce: true });
  const results = new Map<string, ToolView["result"]>();
  const withheld = new Map<string, NonNullable<ToolView["withheld"]>>();
  for (const m of messages) {
    if (m.body.type !== "tool_result") continue;
    results.set(m.body.request_id, m.body);
    if (m.meta?.withheld) withheld.set(m.body.request_id, { message: m.id, held: m.meta.withheld });
  }
  const paired = new Set<string>();
  const undone = new Set<number>();
  for (const m of messages) if (m.body.type === "system_control" && m.body.control.kind === "merge_undone") undone.add(m.body.control.merge);
  const restoresUndone = new Set<number>();
  for (const m of messages) if (m.body.type === "system_control" && m.body.control.kind === "files_restored" && m.body.control.undoes) restoresUndone.add(m.body.control.undoes);
  const items: Item[] = [];
  for (const m of messages) {
    const key = `m${m.id}`;
    const b = m.body;
    if (!full && replaced.has(m.id)) {
      for (const s of placeAt.get(m.id) ?? []) items.push(summaryItem(s));
      continue;
    }
    if (b.type === "system_control" && b.control.kind === "summary") {
      // In the summarised view a summary in force stands where its
      // messages were; in the full history each is a card where it was made.
      if (full || !inForce.has(m.id)) items.push({ key, kind: "summary", id: m.id, count: b.control.replaces.length, text: b.control.text, inForce: inForce.has(m.id) });
      continue;
    }
    switch (b.type) {
      case "text":
        items.push({ key, kind: "text", role: b.role, text: b.parts.map((p) => p.text).join(""), cut: m.meta?.cut ?? false, stopped: m.meta?.stopped ?? false, speed: m.meta?.speed, author: m.meta?.author });
        break;
      case "tool_request":
        for (const c of b.calls) paired.add(c.id);
        items.push({ key, kind: "tools", text: b.text, tools: b.calls.map((call) => ({ call, result: results.get(call.id) ?? null, withheld: withheld.get(call.id) })) });
        break;
      case "tool_result":
        // Shown inside its call's card; a result without a call stands alone.
        if (!paired.has(b.request_id)) items.push({ key, kind: "system", text: `Result for ${b.request_id}: ${b.error ?? b.output}` });
        break;
      case "system_control":
        if (b.control.kind === "merge") items.push({ key, kind: "merge", id: m.id, record: b.control.record, undone: undone.has(m.id) });
        else if (b.control.kind === "files_restored") {
          const c = b.control;
          items.push({ key, kind: "restore", id: m.id, files: c.files, kept: c.kept ?? [], undoes: c.undoes ?? null, undone: restoresUndone.has(m.id), changesOf: c.changes_of ?? null });
        }
        // A switch is shown by the versions on the message and the
        // header; the full history keeps it where it happened.
        else if (b.control.kind === "branch_switch" && !full) continue;
        else items.push({ key, kind: "system", text: systemText(m), retry: b.control.kind === "recovery" && unanswered(messages, m) });
        break;
      case "image":
        items.push({ key, kind: "image", id: m.id, image: b });
        break;
      case "file_reference": {
        const lines = b.range ? (b.range.start_line === b.range.end_line ? `:${b.range.start_line}` : `:${b.range.start_line}-${b.range.end_line}`) : "";
        items.push({ key, kind: "file", label: `${b.path}${lines}`, content: b.content ?? null, error: b.error ?? null });
        break;
      }
      case "mcp_resource":
        // Shown like a file reference: what it is, its content folded.
        items.push({ key, kind: "file", label: `${b.server_name}:${b.resource_uri}`, content: b.content, error: null });
        break;
      default:
        items.push({ key, kind: "system", text: `[${b.type}]` });
    }
  }
  return items;
}

/** A short line for a call's arguments: `path: src/main.rs, start_line: 3`. */
export function argsSummary(args: string, max = 120): string {
  try {
    const v = JSON.parse(args);
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const s = Object.entries(v)
        .map(([k, x]) => `${k}: ${typeof x === "string" ? x.split("\n")[0] : JSON.stringify(x)}`)
        .join(", ");
      return s.length > max ? `${s.slice(0, max - 1)}…` : s;
    }
  } catch {
    // fall through: show what arrived
  }
  return args.length > max ? `${args.slice(0, max - 1)}…` : args;
}

/** The calls waiting for the user, with their arguments. */
export function pendingCalls(messages: Message[], ids: string[]): ToolCall[] {
  const want = new Set(ids);
  const out: ToolCall[] = [];
  for (let i = messages.length - 1; i >= 0 && out.length < want.size; i--) {
    const b = messages[i].body;
    if (b.type === "tool_request") for (const c of b.calls) if (want.has(c.id)) out.push(c);
  }
  return ids.map((id) => out.find((c) => c.id === id)).filter((c): c is ToolCall => !!c);
}

/** The row a message is shown in: a tool result sits in its call's card. */
export function rowKeyFor(messages: Message[], id: number): string {
  const m = messages.find((x) => x.id === id);
  if (m?.body.type === "tool_result") {
    const callId = m.body.request_id;
    const call = messages.find((x) => x.body.type === "tool_request" && x.body.calls.some((c) => c.id === callId));
    if (call) return `m${call.id}`;
  }
  return `m${id}`;
}

/** The answer being continued and its text so far, when the last stored
 *  message is an assistant answer that was cut or stopped, it is the last
 *  row, and one draft streams: the continuation, joined to it when stored. */
export function continuedAnswer(messages: Message[] | undefined, drafts: Record<number, string>, rows: { key: string }[]): { key: string; text: string } | null {
  const last = messages?.at(-1);
  const texts = Object.values(drafts);
  if (!last || texts.length !== 1 || last.body.type !== "text" || last.body.role !== "assistant") return null;
  if (!(last.meta?.cut || last.meta?.stopped) || rows.at(-1)?.key !== `m${last.id}`) return null;
  return { key: `m${last.id}`, text: last.body.parts.map((p) => p.text).join("") + texts[0] };
}
