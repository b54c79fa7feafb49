import { describe, expect, it } from "vitest";
import type { ContextUpdate } from "../generated/protocol";
import { noticeFor } from "./notifications";

const update = (current: ContextUpdate["current_state"], previous: ContextUpdate["previous_state"], at = 60_000): ContextUpdate =>
  ({ context_id: "a", current_state: current, previous_state: previous, message: null, timestamp: at, metadata: {} }) as unknown as ContextUpdate;
const asking = update({ state: "awaiting_tool_approval", pending_requests: ["c"], tool_names: ["write_file"] }, { state: "parsing_tool_calls" });
const done = update({ state: "idle" }, { state: "streaming_llm_response", chunks: 3, chars: 9 });

describe("when a conversation behind tells the user", () => {
  it("tells of an approval asked for, unless it is in front or notifications are off", () => {
    expect(noticeFor(asking, "Refactor", false, 0, "approvals")).toEqual({ title: "Refactor needs your approval", body: "The model wants to run write_file." });
    expect(noticeFor(asking, "Refactor", true, 0, "all")).toBeNull();
    expect(noticeFor(asking, "Refactor", false, 0, "off")).toBeNull();
  });
  it("tells of a long turn's end with all, not a short one, not with only approvals", () => {
    expect(noticeFor(done, "Refactor", false, 0, "all")).toEqual({ title: "Refactor is done", body: "The answer is ready." });
    expect(noticeFor(done, "Refactor", false, 55_000, "all")).toBeNull();
    expect(noticeFor(done, "Refactor", false, 0, "approvals")).toBeNull();
  });
});
