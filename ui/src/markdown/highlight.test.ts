import { describe, expect, it } from "vitest";
import { highlight } from "./highlight";

const kinds = (code: string, lang: string) => highlight(code, lang).filter((t) => t.kind !== "plain").map((t) => `${t.kind}:${t.text}`);

describe("highlight", () => {
  it("marks Rust keywords, strings, numbers and comments, not lifetimes", () => {
    expect(kinds('fn main<\'a>() { let x = "hi"; // done\n 0x1F }', "rust")).toEqual([
      "keyword:fn", "keyword:let", 'string:"hi"', "comment:// done", "number:0x1F",
    ]);
  });

  it("uses # comments for Python and shell", () => {
    expect(kinds("def f(): # note\n  return 'x'", "py")).toEqual(["keyword:def", "comment:# note", "keyword:return", "string:'x'"]);
    expect(kinds("echo $HOME # hi", "bash")).toEqual(["keyword:echo", "comment:# hi"]);
  });

  it("handles escapes, block comments and template strings in TypeScript", () => {
    expect(kinds('const s = "a\\"b"; /* c */ `t${1}`', "ts")).toEqual(["keyword:const", 'string:"a\\"b"', "comment:/* c */", "string:`t${1}`"]);
  });

  it("keeps every character, and leaves unknown languages alone", () => {
    const code = 'x = "unterminated\nnext line 42';
    expect(highlight(code, "python").map((t) => t.text).join("")).toBe(code);
    expect(highlight("<b>not html</b>", "html")).toEqual([{ kind: "plain", text: "<b>not html</b>" }]);
  });

  it("does not read digits inside names as numbers", () => {
    expect(kinds("let v2 = 3;", "rs")).toEqual(["keyword:let", "number:3"]);
  });
});
