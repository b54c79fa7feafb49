import { describe, expect, it } from "vitest";
import type { Message } from "../generated/protocol";
import { childStats } from "./ChildWatch";

const m = (id: number, body: Message["body"], usage?: { prompt_tokens: number; completion_tokens: number }): Message =>
  ({ id, created_at: 0, schema_version: 1, body, meta: usage ? { usage } : undefined }) as Message;

describe("a sub-agent watched live", () => {
  it("counts its turns and tokens and names its last call", () => {
    const call = (name: string) => ({ id: name, name, arguments: "{}", approval: "approved" }) as never;
    const messages = [
      m(1, { type: "text", role: "user", parts: [{ kind: "text", text: "task" }] }),
      m(2, { type: "tool_request", text: null, calls: [call("run_command")] } as never, { prompt_tokens: 100, completion_tokens: 20 }),
      m(3, { type: "tool_request", text: null, calls: [call("read_file"), call("submit_result")] } as never, { prompt_tokens: 150, completion_tokens: 10 }),
    ];
    expect(childStats(messages)).toEqual({ turns: 2, tokens: 280, lastCall: "submit_result" });
    expect(childStats([])).toEqual({ turns: 0, tokens: 0, lastCall: null });
  });
});
