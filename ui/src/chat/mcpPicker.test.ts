import { describe, expect, it } from "vitest";
import type { McpResourceInfo, McpResourceTemplate } from "../generated/protocol";
import { expandTemplate, resourceMatches, unfilledTemplate } from "./mcpPicker";

const r = (server: string, uri: string, name: string): McpResourceInfo => ({ server, uri, name, description: null, mime_type: "text/plain" });
const all = [r("everything", "demo://resource/static/document/architecture.md", "architecture.md"), r("docs", "file:///guide.md", "Guide")];

describe("MCP resources in the @ picker", () => {
  it("finds them by server, name or URI, server matches first", () => {
    expect(resourceMatches(all, "ever")).toEqual(["everything:demo://resource/static/document/architecture.md"]);
    expect(resourceMatches(all, "guide")).toEqual(["docs:file:///guide.md"]);
    expect(resourceMatches(all, "docs:file")).toEqual(["docs:file:///guide.md"]);
    expect(resourceMatches(all, "nothing")).toEqual([]);
  });
});

describe("MCP resource templates", () => {
  const t = (server: string, uri_template: string, variables: string[]): McpResourceTemplate => ({
    server, uri_template, name: "Dynamic", description: null, mime_type: null, variables,
  });
  const text = t("everything", "demo://resource/dynamic/text/{resourceId}", ["resourceId"]);

  it("are offered in the @ picker after resources", () => {
    expect(resourceMatches(all, "everything", [text])).toEqual([
      "everything:demo://resource/static/document/architecture.md",
      "everything:demo://resource/dynamic/text/{resourceId}",
    ]);
  });

  it("are found in the message while not filled in", () => {
    const found = unfilledTemplate("see @everything:demo://resource/dynamic/text/{resourceId} please", [text]);
    expect(found?.start).toBe(4);
    expect(found?.token).toBe("@everything:demo://resource/dynamic/text/{resourceId}");
    expect(unfilledTemplate("see @everything:demo://resource/dynamic/text/7", [text])).toBeNull();
    expect(unfilledTemplate("see @other:demo://resource/dynamic/text/{resourceId}", [text])).toBeNull();
  });

  it("expand every common form of RFC 6570", () => {
    expect(expandTemplate("demo://r/{id}", { id: "a b/c" })).toBe("demo://r/a%20b%2Fc");
    expect(expandTemplate("file://{+path}", { path: "/a b/c" })).toBe("file:///a%20b/c");
    expect(expandTemplate("x://s{/a,b}{?q,n}", { a: "1", b: "2", q: "hi", n: "" })).toBe("x://s/1/2?q=hi");
    expect(expandTemplate("x://s{?q}{&n}", { q: "", n: "3" })).toBe("x://s&n=3");
    expect(expandTemplate("x://s{#f}{.e}", { f: "top", e: "md" })).toBe("x://s#top.md");
  });
});
