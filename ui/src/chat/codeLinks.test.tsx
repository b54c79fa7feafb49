import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OpenFile, located } from "./codeLinks";
import { LinkedOutput } from "./LinkedOutput";

const output = [
  "1 results for \"self.entries.push\" in 13 files searched (page 1 of 1):",
  "",
  "rust/src/lib.rs:23 · mod config › impl Settings › fn apply",
  "   22 | pub fn apply(&mut self, line: &str) {",
  ">   23 |     self.entries.push(line.to_owned());",
].join("\n");

describe("codebase results", () => {
  it("reads the location that starts a result line, and nothing else", () => {
    expect(located("rust/src/lib.rs:23 · fn apply")).toEqual({ path: "rust/src/lib.rs", line: 23, rest: " · fn apply" });
    expect(located("src/tasks.rs:154")).toEqual({ path: "src/tasks.rs", line: 154, rest: "" });
    expect(located(">   23 |     self.entries.push(line);")).toBeNull();
    expect(located("   22 | pub fn apply")).toBeNull();
    expect(located("3 uses of Circle in 2 files:")).toBeNull();
    expect(located("More results: call again with \"cursor\": \"20.ab\"")).toBeNull();
  });
  it("links each location when the file can be opened", () => {
    const html = renderToStaticMarkup(
      <OpenFile.Provider value={() => undefined}>
        <LinkedOutput output={output} />
      </OpenFile.Provider>,
    );
    expect(html).toContain('title="Open rust/src/lib.rs at line 23">rust/src/lib.rs:23</button> · mod config › impl Settings › fn apply');
    expect(html.match(/<button/g)).toHaveLength(1);
  });
  it("shows plain text where nothing can open files", () => {
    const html = renderToStaticMarkup(<LinkedOutput output={output} />);
    expect(html).not.toContain("<button");
    expect(html).toContain("rust/src/lib.rs:23 · mod config");
  });
});
