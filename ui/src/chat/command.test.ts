import { describe, expect, it } from "vitest";
import { parseComposer, parseWindowCommand } from "./command";

describe("composer commands", () => {
  it("sends plain text as it is", () => {
    expect(parseComposer("hello /tool x")).toEqual({ text: "hello /tool x", forceTool: null });
  });
  it("reads /tool name and the rest", () => {
    expect(parseComposer("/tool read_file what is in notes.txt?")).toEqual({ text: "what is in notes.txt?", forceTool: "read_file" });
    expect(parseComposer("  /tool glob_files\n")).toEqual({ text: "Use the glob_files tool.", forceTool: "glob_files" });
  });
  it("reads /compact with what to keep, and /context", () => {
    expect(parseWindowCommand("/compact")).toEqual({ kind: "compact", instructions: null });
    expect(parseWindowCommand(" /compact keep the numbers\n")).toEqual({ kind: "compact", instructions: "keep the numbers" });
    expect(parseWindowCommand("/context")).toEqual({ kind: "context" });
    expect(parseWindowCommand("/compaction is a word")).toBeNull();
    expect(parseWindowCommand("please /compact")).toBeNull();
  });
});
