import { describe, expect, it } from "vitest";
import { textMessage } from "../testing/fixtures";
import { describeMessage } from "./describeMessage";

describe("describeMessage", () => {
  it("gives who and the start of the text on one line", () => {
    expect(describeMessage(textMessage(1, "user", "hello\n  there"))).toBe("user: hello there");
    expect(describeMessage(textMessage(2, "assistant", "x".repeat(100)), 10)).toBe(`assistant…`);
  });
});
