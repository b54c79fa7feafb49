import { describe, expect, it } from "vitest";
import { counted } from "./counted";

describe("counted", () => {
  it("says one thing in the singular and any other count in the plural", () => {
    expect(counted(1, "message")).toBe("1 message");
    expect(counted(0, "message")).toBe("0 messages");
    expect(counted(2, "tool result")).toBe("2 tool results");
    expect(counted(1, "branch", "branches")).toBe("1 branch");
    expect(counted(3, "branch", "branches")).toBe("3 branches");
  });

  it("groups the digits of a large count", () => {
    expect(counted(10000, "message")).toBe("10,000 messages");
  });
});
