import { describe, expect, it } from "vitest";
import { DEFAULT_CALL_MS, withDisabled, without, withExample, withLimits } from "./mcpText";

const file = JSON.stringify({ mcpServers: { a: { command: "x", args: ["1"] }, b: { type: "http", url: "http://h" } }, theirKey: 7 });

describe("edits of the MCP settings text", () => {
  it("turns one server off and on, keeping everything else", () => {
    const off = JSON.parse(withDisabled(file, "a", true));
    expect(off.mcpServers.a).toEqual({ command: "x", args: ["1"], disabled: true });
    expect(off.mcpServers.b).toEqual({ type: "http", url: "http://h" });
    expect(off.theirKey).toBe(7);
    expect(JSON.parse(withDisabled(JSON.stringify(off), "a", false)).mcpServers.a).toEqual({ command: "x", args: ["1"] });
  });
  it("sets one server's limits, writing only those that are not the default", () => {
    const set = JSON.parse(withLimits(file, "a", 5_000, DEFAULT_CALL_MS));
    expect(set.mcpServers.a).toEqual({ command: "x", args: ["1"], startupTimeoutMs: 5_000 });
    const back = JSON.parse(withLimits(JSON.stringify(set), "a", 30_000, 60_000));
    expect(back.mcpServers.a).toEqual({ command: "x", args: ["1"], callTimeoutMs: 60_000 });
    expect(back.theirKey).toBe(7);
  });
  it("removes one server and adds an example under a free name", () => {
    expect(Object.keys(JSON.parse(without(file, "a")).mcpServers)).toEqual(["b"]);
    const added = JSON.parse(withExample(withExample("")));
    expect(Object.keys(added.mcpServers)).toEqual(["new-server", "new-server-2"]);
    expect(added.mcpServers["new-server"].command).toBe("npx");
  });
  it("refuses text that is not JSON rather than overwrite it", () => {
    expect(() => without("{not json", "a")).toThrow();
  });
});
