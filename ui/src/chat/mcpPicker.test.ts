import { describe, expect, it } from "vitest";
import type { McpResourceInfo } from "../generated/protocol";
import { resourceMatches } from "./mcpPicker";

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
