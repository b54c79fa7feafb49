import { describe, expect, it } from "vitest";
import type { Message } from "../generated/protocol";
import { textMessage } from "../testing/fixtures";
import { argsSummary, continuedAnswer, pendingCalls, rowKeyFor, standingSummaries, systemText, transcript } from "./transcript";

const request: Message = {
  id: 2, created_at: 0, schema_version: 1,
  body: { type: "tool_request", text: "Let me look.", calls: [
    { id: "a", name: "read_file", arguments: '{"path":"src/main.rs"}', approval: "approved" },
    { id: "b", name: "write_file", arguments: '{"path":"x","content":"line1\\nline2"}', approval: "pending" },
  ] },
};
const result: Message = {
  id: 3, created_at: 0, schema_version: 1,
  body: { type: "tool_result", request_id: "a", status: "success", output: "1\tfn main() {}", error: null, recoverable: false, duration_ms: 4, finished_at: 0 },
};

describe("transcript", () => {
  it("folds each result into its call's card", () => {
    const items = transcript([textMessage(1, "user", "hi"), request, result]);
    expect(items.map((i) => i.kind)).toEqual(["text", "tools"]);
    const tools = items[1].kind === "tools" ? items[1].tools : [];
    expect(tools.map((t) => [t.call.id, t.result?.output ?? null])).toEqual([["a", "1\tfn main() {}"], ["b", null]]);
  });

  it("finds the row a message is shown in: a result is in its call's card", () => {
    const messages = [textMessage(1, "user", "hi"), request, result];
    expect(rowKeyFor(messages, 3)).toBe("m2");
    expect(rowKeyFor(messages, 1)).toBe("m1");
    expect(rowKeyFor(messages, 99)).toBe("m99");
  });

  it("tells an undo of a turn's changes from a rewind, and marks the one undone", () => {
    const undo: Message = { id: 6, created_at: 0, schema_version: 1, body: { type: "system_control", control: { kind: "files_restored", to: 1, files: 1, changes_of: 1 } } };
    const back: Message = { id: 7, created_at: 0, schema_version: 1, body: { type: "system_control", control: { kind: "files_restored", to: 6, files: 1, undoes: 6, changes_of: 1 } } };
    const items = transcript([textMessage(1, "user", "hi"), undo, back]);
    const cards = items.filter((i) => i.kind === "restore");
    expect(cards.map((c) => c.kind === "restore" && [c.changesOf, c.undoes, c.undone])).toEqual([[1, null, true], [1, 6, false]]);
    expect(systemText(undo)).toBe("Changes undone: 1 files");
  });

  it("shows a merge as a card, marked once it was undone", () => {
    const record = { source: "b2", source_name: "idea", target: "main", source_tip: 3, strategy: "append" as const, brought: [7], removed: [], before: null, summary: null, resolutions: [], prompt_before: null, replayed: 0, replay_ids: [], model_before: null };
    const card: Message = { id: 6, created_at: 0, schema_version: 1, body: { type: "system_control", control: { kind: "merge", record } } };
    const undone: Message = { id: 8, created_at: 0, schema_version: 1, body: { type: "system_control", control: { kind: "merge_undone", merge: 6 } } };
    const items = transcript([card]);
    expect(items[0].kind === "merge" && items[0].undone).toBe(false);
    const after = transcript([card, undone]);
    expect(after.map((i) => i.kind)).toEqual(["merge", "system"]);
    expect(after[0].kind === "merge" && after[0].undone).toBe(true);
  });

  it("shows mode changes and notices as system lines", () => {
    const mode: Message = { id: 4, created_at: 0, schema_version: 1, body: { type: "system_control", control: { kind: "mode_change", mode: "plan" } } };
    const notice: Message = { id: 5, created_at: 0, schema_version: 1, body: { type: "system_control", control: { kind: "notice", code: "loop_limit", text: "The tool loop stopped after 10 rounds." } } };
    expect(transcript([mode, notice]).map((i) => i.kind === "system" && i.text)).toEqual(["Switched to Plan mode", "The tool loop stopped after 10 rounds."]);
  });

  it("leaves branch switches to the versions on the message, but the full history keeps them", () => {
    const sw: Message = { id: 6, created_at: 0, schema_version: 1, body: { type: "system_control", control: { kind: "branch_switch", from: "main", to: "b2" } } };
    expect(transcript([sw], false).length).toBe(0);
    expect(transcript([sw], true).map((i) => i.kind === "system" && i.text)).toEqual(["Switched branch"]);
  });
  it("summarises arguments on one line and finds pending calls", () => {
    expect(argsSummary('{"path":"x","content":"line1\\nline2"}')).toBe("path: x, content: line1");
    expect(argsSummary("{not json")).toBe("{not json");
    expect(pendingCalls([request, result], ["b"]).map((c) => c.name)).toEqual(["write_file"]);
  });
});

describe("summaries in the transcript", () => {
  const summary: Message = { id: 9, created_at: 0, schema_version: 1, body: { type: "system_control", control: { kind: "summary", text: "Task: read a.", replaces: [1, 2, 3] } } };
  const all = [textMessage(1, "user", "hi"), request, result, textMessage(4, "user", "next"), summary];
  it("shows the summary where the summarised messages were, by default", () => {
    const items = transcript(all, false);
    expect(items.map((i) => i.kind)).toEqual(["summary", "text"]);
    expect(items[0]).toMatchObject({ kind: "summary", count: 3, text: "Task: read a." });
  });
  it("shows every stored message in the full history", () => {
    expect(transcript(all, true).map((i) => i.kind)).toEqual(["text", "tools", "text", "summary"]);
  });
  const control = (id: number, c: Extract<Message["body"], { type: "system_control" }>["control"]): Message => ({ id, created_at: 0, schema_version: 1, body: { type: "system_control", control: c } });
  it("shows the originals again once a summary is taken back", () => {
    const undone = [...all, control(10, { kind: "summary_undone", summary: 9 })];
    const items = transcript(undone, false);
    expect(items.map((i) => i.kind)).toEqual(["text", "tools", "text", "summary", "system"]);
    expect(items[3]).toMatchObject({ kind: "summary", inForce: false });
  });
  it("places a summary made from a later message where that message was, beside an earlier one", () => {
    const late = control(11, { kind: "summary", text: "Later part.", replaces: [4] });
    const items = transcript([...all, textMessage(5, "assistant", "ok"), late], false);
    expect(items.map((i) => (i.kind === "summary" ? i.text : i.kind))).toEqual(["Task: read a.", "Later part.", "text"]);
    expect(standingSummaries([...all, late]).map((s) => s.id)).toEqual([11, 9]);
  });
});

describe("file references in the transcript", () => {
  it("show as a chip with path and lines", () => {
    const ref: Message = { id: 1, created_at: 0, schema_version: 1, body: { type: "file_reference", path: "src/lib.rs", range: { start_line: 2, end_line: 3 }, content: "fn b() {}", status: "resolved", error: null } };
    expect(transcript([ref])[0]).toMatchObject({ kind: "file", label: "src/lib.rs:2-3", content: "fn b() {}" });
  });
  it("and so do MCP resources, named by server and URI", () => {
    const res: Message = { id: 2, created_at: 0, schema_version: 1, body: { type: "mcp_resource", server_name: "docs", resource_uri: "demo://a.md", content: "# A", mime_type: "text/markdown", retrieved_at: 0 } };
    expect(transcript([res])[0]).toMatchObject({ kind: "file", label: "docs:demo://a.md", content: "# A" });
  });
});

describe("overwrite warning", () => {
  it("says why a pending write would be refused, per call", async () => {
    const { overwriteWarning } = await import("./ApprovalPanel");
    const call = { id: "w", name: "write_file", arguments: '{"path":"./docs/a.md","content":"x"}', approval: "pending" as const };
    expect(overwriteWarning(call, [{ call_id: "w", path: "docs/a.md", reason: "changed_outside" }])).toMatch(/^docs\/a.md changed outside Braid since the model read it/);
    expect(overwriteWarning(call, [{ call_id: "w", path: "docs/a.md", reason: "not_read" }])).toMatch(/^docs\/a.md exists and the model has not read it/);
    expect(overwriteWarning(call, [{ call_id: "other", path: "docs/a.md", reason: "not_read" }])).toBeNull();
    expect(overwriteWarning(call, [])).toBeNull();
  });
});

describe("a crash note", () => {
  const recovery = (id: number): Message => ({ id, created_at: 0, schema_version: 1, body: { type: "system_control", control: { kind: "recovery", interrupted_state: "streaming_llm_response", detail: "The partial answer was not kept; press Retry to ask again." } } });
  it("offers Retry when the message before it went unanswered", () => {
    const items = transcript([textMessage(1, "user", "tell me"), recovery(2)]);
    expect(items[1]).toMatchObject({ kind: "system", retry: true });
  });
  it("does not when the answer was kept", () => {
    const items = transcript([textMessage(1, "user", "tell me"), textMessage(2, "assistant", "done"), recovery(3)]);
    expect(items[2]).toMatchObject({ kind: "system", retry: false });
  });
});

describe("a workflow's card", () => {
  const card = (outcome: Extract<Extract<Message["body"], { type: "system_control" }>["control"], { kind: "workflow" }>["outcome"]): Message => ({
    id: 9,
    created_at: 0,
    schema_version: 1,
    body: { type: "system_control", control: { kind: "workflow", name: "review", arguments: { file: "a.rs" }, message: 8, outcome } },
  });
  it("says it runs, then how it ended", () => {
    expect(systemText(card(null))).toBe("Workflow /review (file=a.rs): running…");
    expect(systemText(card({ status: "completed", answer: 10, tool_results: 2, error: null }))).toBe("Workflow /review (file=a.rs): completed, 2 tool results");
    expect(systemText(card({ status: "failed", answer: null, tool_results: 0, error: "no provider" }))).toBe("Workflow /review (file=a.rs): failed: no provider");
    expect(systemText(card({ status: "cancelled", answer: null, tool_results: 0, error: null }))).toBe("Workflow /review (file=a.rs): cancelled");
  });
});

describe("an answer going on", () => {
  const cut: Message = { ...textMessage(2, "assistant", "Roses are"), meta: { cut: true } as Message["meta"] };
  const rows = [{ key: "m1" }, { key: "m2" }];
  it("streams inside the cut answer it continues", () => {
    expect(continuedAnswer([textMessage(1, "user", "poem"), cut], { 7: " red" }, rows)).toEqual({ key: "m2", text: "Roses are red" });
  });
  it("leaves a new answer to its own row", () => {
    expect(continuedAnswer([textMessage(1, "user", "poem"), textMessage(2, "assistant", "done")], { 7: "x" }, rows)).toBeNull();
    expect(continuedAnswer([textMessage(1, "user", "poem")], { 7: "x" }, [{ key: "m1" }])).toBeNull();
    expect(continuedAnswer([textMessage(1, "user", "poem"), cut], {}, rows)).toBeNull();
  });
});
