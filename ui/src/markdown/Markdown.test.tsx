import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { need } from "./lazy";
import { blocks, Markdown, pluginsFor, StreamingMarkdown } from "./Markdown";

// What the page loads on first need, loaded before any test renders.
beforeAll(() => need(true, true));

const html = (source: string) => renderToStaticMarkup(<Markdown source={source} />);

describe("the Markdown of an answer", () => {
  it("renders GitHub tables, task lists, strikethrough and footnotes", () => {
    const out = html("| lang | speed |\n|---|---:|\n| Rust | fast |\n\n- [x] done\n- [ ] todo\n\n~~old~~ new[^1]\n\n[^1]: a note");
    expect(out).toContain("<table>");
    expect(out).toContain('<td style="text-align:right">fast</td>');
    expect(out).toContain('<input type="checkbox" disabled="" checked=""/> done');
    expect(out).toContain("<del>old</del>");
    expect(out).toContain('data-footnote-ref="true"');
  });
  it("renders block quotes, nested lists and maths", () => {
    const out = html("> quoted\n\n1. one\n   - inner\n\n$E = mc^2$ and\n\n$$\n\\int_0^1 x\\,dx\n$$");
    expect(out).toContain("<blockquote>");
    expect(out).toMatch(/<ol>[\s\S]*<ul>[\s\S]*inner/);
    expect(out).toContain('class="katex"');
    expect(out).toContain('class="katex-display"');
  });
  it("highlights code and offers to copy it as written", () => {
    const out = html("```rust\nfn main() { let x = 1; }\n```");
    expect(out).toContain('<span>rust</span><button type="button" aria-label="Copy code">Copy</button>');
    expect(out).toContain('<span class="hljs-keyword">fn</span>');
  });
  it("never renders HTML from the model, and drops unsafe links", () => {
    const out = html('<script>alert(1)</script> <b>bold?</b>\n\n[x](javascript:alert(1)) [docs](https://example.com)');
    expect(out).not.toContain("<script>");
    expect(out).not.toContain("<b>");
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(out).not.toContain("javascript:");
    expect(out).toContain('<a href="https://example.com" target="_blank" rel="noreferrer noopener">docs</a>');
  });
  it("shows an unclosed fence while it streams", () => {
    expect(html("```py\nprint(1)")).toContain("print");
  });
});

describe("an answer as it streams", () => {
  it("is cut into blocks at blank lines, never inside code or maths", () => {
    const text = "One.\n\nTwo\nlines.\n\n```py\na = 1\n\nb = 2\n```\n\n$$\nx\n\ny\n$$\n\nLast";
    expect(blocks(text)).toEqual(["One.", "Two\nlines.", "```py\na = 1\n\nb = 2\n```", "$$\nx\n\ny\n$$", "Last"]);
    expect(blocks("```\nopen fence\n\nstill code")).toEqual(["```\nopen fence\n\nstill code"]);
  });
  it("renders like the whole answer for ordinary blocks", () => {
    const text = "# Title\n\nSome **bold**.\n\n```rust\nfn main() {}\n```";
    const whole = renderToStaticMarkup(<Markdown source={text} />).replace(/\n/g, "");
    const streamed = renderToStaticMarkup(<StreamingMarkdown source={text} />).replace(/\n/g, "");
    expect(streamed).toBe(whole);
  });
});

describe("the plugins a block gets", () => {
  it("are only those its characters could need", () => {
    const count = (s: string) => { const p = pluginsFor(s); return [p.remark.length, p.rehype.length]; };
    expect(count("plain prose, nothing more")).toEqual([1, 0]);
    expect(count("| a | b |")).toEqual([2, 0]);
    expect(count("see https://example.com")).toEqual([2, 0]);
    expect(count("$x^2$")).toEqual([2, 1]);
    expect(count("```rust\nfn x() {}\n```")).toEqual([1, 1]);
    expect(pluginsFor("a")).toBe(pluginsFor("b"));
  });
});
