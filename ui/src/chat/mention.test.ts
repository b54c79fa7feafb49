import { describe, expect, it } from "vitest";
import { insertMention, mentionAt } from "./mention";

describe("the @ picker's text", () => {
  it("finds the mention at the caret", () => {
    expect(mentionAt("look at @src/ma", 15)).toEqual({ start: 8, query: "src/ma" });
    expect(mentionAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionAt("mail a@b.c", 10)).toBeNull();
    expect(mentionAt("@src/main.rs done", 17)).toBeNull();
    expect(mentionAt("@src/main.rs:12", 15)).toBeNull();
  });
  it("replaces the typed mention with the chosen path", () => {
    const text = "look at @src/ma please";
    const t = mentionAt(text, 15)!;
    expect(insertMention(text, 15, t, "src/main.rs")).toEqual({ text: "look at @src/main.rs  please", caret: 21 });
  });
});
