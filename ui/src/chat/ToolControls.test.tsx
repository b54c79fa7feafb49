import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { defaultTools } from "../testing/fixtures";
import { sandboxOf } from "./ToolCard";
import { SandboxControls } from "./ToolControls";

describe("the command sandbox control", () => {
  it("shows the level with the network and .git choices, off by default", () => {
    const html = renderToStaticMarkup(<SandboxControls tools={defaultTools} onSandbox={() => {}} />);
    expect(html).toMatch(/<option value="workspace_write"[^>]*selected=""/);
    expect(html).toMatch(/<span>Network<\/span><input type="checkbox"\/>/);
    expect(html).toContain(".git writable");
    expect(html).not.toContain("full-access");
  });

  it("full access is marked red and has no sandbox options left", () => {
    const tools = { ...defaultTools, sandbox: { level: "full_access" as const, network: false, git_writable: false } };
    const html = renderToStaticMarkup(<SandboxControls tools={tools} onSandbox={() => {}} />);
    expect(html).toContain("sandbox full-access");
    expect(html).not.toContain("Network");
  });

  it("read-only offers the network but not .git", () => {
    const tools = { ...defaultTools, sandbox: { level: "read_only" as const, network: true, git_writable: false } };
    const html = renderToStaticMarkup(<SandboxControls tools={tools} onSandbox={() => {}} />);
    expect(html).toMatch(/<span>Network<\/span><input type="checkbox" checked=""\/>/);
    expect(html).not.toContain(".git writable");
  });
});

describe("the sandbox on a command's card", () => {
  it("reads the level from the result's first line, full access flagged", () => {
    expect(sandboxOf("sandbox: workspace-write, network off\nexit code: 0\n")).toEqual({ text: "sandbox: workspace-write, network off", full: false });
    expect(sandboxOf("sandbox: none (full access)\nexit code: 1\n")).toEqual({ text: "no sandbox (full access)", full: true });
    expect(sandboxOf("exit code: 0\n")).toBeNull();
    expect(sandboxOf(undefined)).toBeNull();
  });
});
