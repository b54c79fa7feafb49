import { describe as suite, expect, it } from "vitest";
import type { BraidEvent, ContextSnapshot, ContextStatus } from "../generated/protocol";
import { snapshotOf, textMessage } from "../testing/fixtures";
import { applyEvent, applySnapshot, empty } from "./model";
import { describe, isBusy } from "./describe";

const snapshot = (ids: number[]): ContextSnapshot => snapshotOf(ids.map((id) => textMessage(id, "user", `m${id}`)));

const delta = (message_id: number, sequence: number, text: string): BraidEvent => ({
  event: "content_delta", context_id: "c", message_id, sequence, delta: text, is_final: false,
});

const update = (state: BraidEvent & { event: "context_update" }): BraidEvent => state;

suite("chat model", () => {
  it("accumulates streamed text and drops it once the message is stored", () => {
    let m = applySnapshot(empty, snapshot([1]));
    m = applyEvent(m, delta(2, 1, "Hel"));
    m = applyEvent(m, delta(2, 2, "lo"));
    expect(m.drafts[2]).toBe("Hello");
    m = applyEvent(m, update({
      event: "context_update", context_id: "c", current_state: { state: "idle" }, previous_state: { state: "processing_llm_response" },
      message: { message_id: 2, kind: "text", change: { change: "completed" }, withheld: false }, timestamp: 0, metadata: { queue: [] },
    }));
    expect(m.changes).toBe(1);
    m = applySnapshot(m, snapshot([1, 2]));
    expect(m.drafts).toEqual({});
  });

  it("starts a view opened mid-answer from the answer so far", () => {
    let m = applySnapshot(empty, { ...snapshot([1]), draft: { message_id: 2, text: "Hel" } });
    expect(m.drafts[2]).toBe("Hel");
    m = applyEvent(m, delta(2, 2, "lo"));
    expect(m.drafts[2]).toBe("Hello");
    // A later load that had seen less keeps what the deltas built.
    m = applySnapshot(m, { ...snapshot([1]), draft: { message_id: 2, text: "Hel" } });
    expect(m.drafts[2]).toBe("Hello");
    m = applySnapshot(m, { ...snapshot([1, 2]), draft: { message_id: 2, text: "Hello" } });
    expect(m.drafts).toEqual({});
  });

  it("ignores deltas of an answer the snapshot already holds", () => {
    // The snapshot came back before the frame that applies the deltas.
    let m = applySnapshot(empty, snapshot([1, 2]));
    m = applyEvent(m, delta(2, 1, "late"));
    expect(m.drafts).toEqual({});
    m = applyEvent(m, delta(3, 1, "new"));
    expect(m.drafts).toEqual({ 3: "new" });
  });

  it("forgets a discarded answer and shows the queue and notices", () => {
    let m = applyEvent(empty, delta(5, 1, "partial"));
    m = applyEvent(m, update({
      event: "context_update", context_id: "c", current_state: { state: "idle" }, previous_state: null,
      message: { message_id: 5, kind: "text", change: { change: "status_changed", status: "discarded" }, withheld: false }, timestamp: 0,
      metadata: { queue: [{ message_id: 6, preview: "next" }], notice: { code: "cancelled", message: "Cancelled." } },
    }));
    expect(m.drafts[5]).toBeUndefined();
    expect(m.queue.map((q) => q.preview)).toEqual(["next"]);
    expect(m.notice?.code).toBe("cancelled");
    m = applyEvent(m, update({
      event: "context_update", context_id: "c", current_state: { state: "processing_user_message" }, previous_state: { state: "idle" },
      message: null, timestamp: 1, metadata: { queue: [] },
    }));
    expect(m.notice).toBeNull();
  });

  it("keeps a notice the user should see when a quiet one follows", () => {
    const noticed = (notice: { code: "secrets_hidden" | "usage_unreported"; message: string }, previous: ContextStatus | null): BraidEvent =>
      update({ event: "context_update", context_id: "c", current_state: { state: "streaming_llm_response", chunks: 1, chars: 1 }, previous_state: previous, message: null, timestamp: 0, metadata: { queue: [], notice } });
    let m = applyEvent(empty, noticed({ code: "secrets_hidden", message: "1 secret was hidden from the model" }, null));
    m = applyEvent(m, noticed({ code: "usage_unreported", message: "no usage" }, { state: "awaiting_llm_first_chunk" }));
    expect(m.notice?.code).toBe("secrets_hidden");
  });

  it("puts a message that travels with its event in place, without a load", () => {
    let m = applySnapshot(empty, snapshot([1]));
    m = applyEvent(m, delta(2, 1, "Hello"));
    const streaming: ContextStatus = { state: "streaming_llm_response", chunks: 1, chars: 5 };
    m = applyEvent(m, update({
      event: "context_update", context_id: "c", current_state: { state: "processing_llm_response" }, previous_state: streaming,
      message: { message_id: 2, kind: "text", change: { change: "completed" }, withheld: false, message: textMessage(2, "assistant", "Hello") }, timestamp: 0, metadata: { queue: [] },
    }));
    expect(m.snapshot?.messages.map((x) => x.id)).toEqual([1, 2]);
    expect(m.drafts).toEqual({});
    expect(m.changes).toBe(0);
    // Changed later (an approval, an image read again): replaced where it is.
    m = applyEvent(m, update({
      event: "context_update", context_id: "c", current_state: { state: "processing_llm_response" }, previous_state: null,
      message: { message_id: 1, kind: "text", change: { change: "status_changed", status: "read" }, withheld: false, message: textMessage(1, "user", "m1, read") }, timestamp: 0, metadata: { queue: [] },
    }));
    expect(m.snapshot?.messages.map((x) => (x.body.type === "text" ? x.body.parts[0].text : ""))).toEqual(["m1, read", "Hello"]);
    expect(m.changes).toBe(0);
    // The turn's end loads the snapshot once, for what it counts.
    m = applyEvent(m, update({
      event: "context_update", context_id: "c", current_state: { state: "idle" }, previous_state: { state: "processing_llm_response" },
      message: null, timestamp: 0, metadata: { queue: [] },
    }));
    expect(m.changes).toBe(1);
  });

  it("loads the snapshot when a call waits for approval (its preview is there)", () => {
    const m = applyEvent(applySnapshot(empty, snapshot([1])), update({
      event: "context_update", context_id: "c", current_state: { state: "awaiting_tool_approval", pending_requests: ["c1"], tool_names: ["write_file"] },
      previous_state: { state: "processing_llm_response" }, message: null, timestamp: 0, metadata: { queue: [] },
    }));
    expect(m.changes).toBe(1);
  });

  it("loads it again for a new question in the same wait, not for one decided", () => {
    const asking = (calls: string[]) => update({
      event: "context_update", context_id: "c", current_state: { state: "awaiting_tool_approval", pending_requests: calls, tool_names: calls.map(() => "run_command") },
      previous_state: null, message: null, timestamp: 0, metadata: { queue: [] },
    });
    let m = applyEvent(applySnapshot(empty, snapshot([1])), asking(["c1", "c2"]));
    expect(m.changes).toBe(1);
    m = applyEvent(m, asking(["c2"]));
    expect(m.changes).toBe(1);
    m = applyEvent(m, asking(["c2", "c3"]));
    expect(m.changes).toBe(2);
  });

  it("loads a message that did not travel with its event (a large one)", () => {
    let m = applySnapshot(empty, snapshot([1]));
    m = applyEvent(m, update({
      event: "context_update", context_id: "c", current_state: { state: "processing_user_message" }, previous_state: null,
      message: { message_id: 2, kind: "text", change: { change: "created" }, withheld: true }, timestamp: 0, metadata: { queue: [] },
    }));
    expect(m.changes).toBe(1);
    expect(m.snapshot?.messages.map((x) => x.id)).toEqual([1]);
  });

  it("reloads when a stored message changed (an image read again)", () => {
    const m = applyEvent(empty, update({
      event: "context_update", context_id: "c", current_state: { state: "idle" }, previous_state: { state: "reading_images", done: 0, total: 1 },
      message: { message_id: 7, kind: "image", change: { change: "status_changed", status: "read" }, withheld: false }, timestamp: 0,
      metadata: { queue: [] },
    }));
    expect(m.changes).toBe(1);
  });
});

suite("state line", () => {
  it("says what happens, with numbers", () => {
    expect(describe({ state: "streaming_llm_response", chunks: 42, chars: 1980 }, 0)).toBe("Streaming (42 chunks, 1,980 chars)");
    expect(describe({ state: "retrying_llm_request", attempt: 2, max: 3, retry_at: 4000 }, 500)).toBe("Retrying in 4 s (2/3)");
    expect(describe({ state: "executing_tool", tool_name: "read_file", index: 2, total: 5, attempt: 1 }, 0)).toBe("Executing tool 2/5: read_file");
    expect(describe({ state: "failed", error_code: "auth", message: "check the API key for OpenAI", recoverable: false }, 0)).toBe("Failed: check the API key for OpenAI");
    expect(isBusy({ state: "idle" })).toBe(false);
    expect(isBusy({ state: "connecting_to_llm" })).toBe(true);
  });
});
