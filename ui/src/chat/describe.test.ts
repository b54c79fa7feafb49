import { describe as suite, expect, it } from "vitest";
import type { ContextStatus, StatusKind } from "../generated/protocol";
import { describe, describeSpeed, isBusy } from "./describe";

// One sample of every state, with the words the state line must show.
const EVERY: [ContextStatus, string][] = [
  [{ state: "idle" }, "Idle"],
  [{ state: "processing_user_message" }, "Processing message…"],
  [{ state: "resolving_file_references" }, "Resolving file references…"],
  [{ state: "enhancing_system_prompt" }, "Preparing system prompt…"],
  [{ state: "reading_images", done: 1, total: 3 }, "Reading images (1/3 done)"],
  [{ state: "preparing_llm_request" }, "Preparing request…"],
  [{ state: "connecting_to_llm" }, "Connecting…"],
  [{ state: "awaiting_llm_first_chunk" }, "Waiting for the first token…"],
  [{ state: "streaming_llm_response", chunks: 42, chars: 1980 }, "Streaming (42 chunks, 1,980 chars)"],
  [{ state: "processing_llm_response" }, "Processing response…"],
  [{ state: "retrying_llm_request", attempt: 2, max: 3, retry_at: 4_000 }, "Retrying in 4 s (2/3)"],
  [{ state: "parsing_tool_calls" }, "Parsing tool calls…"],
  [{ state: "awaiting_tool_approval", pending_requests: ["c1", "c2"], tool_names: ["write_file", "run_command"] }, "Awaiting approval: write_file, run_command"],
  [{ state: "executing_tool", tool_name: "read_file", index: 2, total: 5, attempt: 1 }, "Executing tool 2/5: read_file"],
  [{ state: "collecting_tool_results" }, "Collecting tool results…"],
  [{ state: "processing_tool_results" }, "Processing tool results…"],
  [{ state: "tool_auto_loop", depth: 3, tools_executed: 7 }, "Auto-processing (round 3, 7 tools executed)"],
  [{ state: "summarizing" }, "Summarising older messages…"],
  [{ state: "awaiting_sub_agents", done: 1, total: 4 }, "Waiting for sub-agents (1/4 done)"],
  [{ state: "cancelling" }, "Cancelling…"],
  [{ state: "failed", error_code: "auth", message: "check the API key for OpenAI", recoverable: false }, "Failed: check the API key for OpenAI"],
];

// Every StatusKind must appear above: adding a state without wording fails.
const KINDS: Record<StatusKind, true> = {
  idle: true, processing_user_message: true, resolving_file_references: true, enhancing_system_prompt: true,
  reading_images: true, preparing_llm_request: true, connecting_to_llm: true, awaiting_llm_first_chunk: true,
  streaming_llm_response: true, processing_llm_response: true, retrying_llm_request: true, parsing_tool_calls: true,
  awaiting_tool_approval: true, executing_tool: true, collecting_tool_results: true, processing_tool_results: true,
  tool_auto_loop: true, summarizing: true, awaiting_sub_agents: true, cancelling: true, failed: true,
};

suite("state line words", () => {
  it("covers every state", () => {
    expect(EVERY.map(([s]) => s.state).sort()).toEqual(Object.keys(KINDS).sort());
  });

  it.each(EVERY)("%j reads %s", (status, words) => {
    expect(describe(status, 0)).toBe(words);
  });

  it("counts a retry down and never below zero", () => {
    const s: ContextStatus = { state: "retrying_llm_request", attempt: 1, max: 3, retry_at: 10_000 };
    expect(describe(s, 7_100)).toBe("Retrying in 3 s (1/3)");
    expect(describe(s, 12_000)).toBe("Retrying in 0 s (1/3)");
  });

  it("is busy in every state but Idle and Failed", () => {
    for (const [s] of EVERY) expect(isBusy(s)).toBe(s.state !== "idle" && s.state !== "failed");
  });
});

suite("an answer's pace", () => {
  it("says the wait for the first token and the tokens per second", () => {
    expect(describeSpeed({ first_token_ms: 350, streaming_ms: 1000, output_tokens: 41, reported: true })).toBe("0.4 s to the first token · 41 tokens/s");
    expect(describeSpeed({ first_token_ms: 1200, streaming_ms: 4000, output_tokens: 30, reported: false })).toBe("1.2 s to the first token · about 7.5 tokens/s");
    // One chunk: no rate worth showing.
    expect(describeSpeed({ first_token_ms: 80, streaming_ms: 0, output_tokens: 5, reported: true })).toBe("0.1 s to the first token");
  });
});
