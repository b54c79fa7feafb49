import { describe, expect, it } from "vitest";
import { parseBlocks, parseInline } from "./parse";

describe("markdown", () => {
  it("parses fences, headings, lists and paragraphs", () => {
    const blocks = parseBlocks("# Title\n\nSome **bold** text\nand more.\n\n```rust\nfn main() {}\n```\n- one\n- two `x`\n1. first\n");
    expect(blocks.map((b) => b.kind)).toEqual(["heading", "paragraph", "code", "list", "list"]);
    expect(blocks[2]).toEqual({ kind: "code", language: "rust", code: "fn main() {}" });
    const list = blocks[3];
    expect(list.kind === "list" && list.items.length).toBe(2);
    expect(blocks[4].kind === "list" && blocks[4].ordered).toBe(true);
  });

  it("shows an unclosed fence while it streams", () => {
    expect(parseBlocks("```py\nprint(1)")).toEqual([{ kind: "code", language: "py", code: "print(1)" }]);
  });

  it("keeps unsafe links as text", () => {
    expect(parseInline("[x](javascript:alert(1))")).toEqual([{ kind: "text", text: "[x](javascript:alert(1)" }, { kind: "text", text: ")" }]);
    expect(parseInline("see [docs](https://example.com)")[1]).toEqual({ kind: "link", href: "https://example.com", text: "docs" });
    expect(parseInline("a `b` *c*")).toEqual([
      { kind: "text", text: "a " },
      { kind: "code", text: "b" },
      { kind: "text", text: " " },
      { kind: "em", children: [{ kind: "text", text: "c" }] },
    ]);
  });
});
