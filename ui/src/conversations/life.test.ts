import { describe, expect, it } from "vitest";
import { lifeOf, needsMe } from "./life";

describe("a conversation's life in the list", () => {
  it("says what runs, and that waiting or failing needs the user", () => {
    expect(lifeOf({ state: "executing_tool", tool_name: "run_command", index: 0, total: 1, attempt: 1 }, false)).toEqual({ kind: "running", text: "Running run_command" });
    expect(lifeOf({ state: "awaiting_sub_agents", done: 1, total: 3 }, false)?.text).toBe("Sub-agents 1/3");
    const waiting = lifeOf({ state: "awaiting_tool_approval", pending_requests: ["c1"], tool_names: ["write_file"] }, false);
    expect(waiting).toEqual({ kind: "waiting", text: "Needs your approval: write_file" });
    expect(needsMe(waiting)).toBe(true);
    expect(needsMe(lifeOf({ state: "streaming_llm_response", chunks: 3, chars: 20 }, false))).toBe(false);
    expect(needsMe(lifeOf({ state: "failed", error_code: "network", message: "refused", recoverable: true }, false))).toBe(true);
  });
  it("shows an idle conversation only when it finished unseen", () => {
    expect(lifeOf({ state: "idle" }, false)).toBeNull();
    expect(lifeOf({ state: "idle" }, true)).toEqual({ kind: "done", text: "Done" });
  });
});
