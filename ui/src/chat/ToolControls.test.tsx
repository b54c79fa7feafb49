import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { defaultTools } from "../testing/fixtures";
import { sandboxOf, ToolCard } from "./ToolCard";
import { SandboxControls } from "./ToolControls";

describe("the command sandbox control", () => {
  it("shows the level with the network and .git choices, off by default", () => {
    const html = renderToStaticMarkup(<SandboxControls sandbox={defaultTools.sandbox} onSandbox={() => {}} />);
    expect(html).toMatch(/<option value="workspace_write"[^>]*selected=""/);
    expect(html).toMatch(/<span>Network<\/span><input type="checkbox"\/>/);
    expect(html).toContain(".git writable");
    expect(html).not.toContain("full-access");
  });

  it("full access is marked red and has no sandbox options left", () => {
    const tools = { ...defaultTools, sandbox: { level: "full_access" as const, network: false, git_writable: false } };
    const html = renderToStaticMarkup(<SandboxControls sandbox={tools.sandbox} onSandbox={() => {}} />);
    expect(html).toContain("sandbox full-access");
    expect(html).not.toContain("Network");
  });

  it("explains the chosen level in plain words", () => {
    const html = renderToStaticMarkup(<SandboxControls sandbox={defaultTools.sandbox} onSandbox={() => {}} />);
    expect(html).toContain("never your home&#x27;s other files, keys or Braid&#x27;s data; they change only this folder (not its .git, .mcp.json or .env)");
    expect(html).toContain("Network: off, not even 127.0.0.1.");
  });

  it("says once when this machine has no sandbox", () => {
    const html = renderToStaticMarkup(<SandboxControls sandbox={defaultTools.sandbox} noSandbox="bubblewrap (/usr/bin/bwrap) is not installed" onSandbox={() => {}} />);
    expect(html).toContain("This machine has no sandbox (bubblewrap (/usr/bin/bwrap) is not installed): Braid asks before every command");
  });

  it("read-only offers the network but not .git", () => {
    const tools = { ...defaultTools, sandbox: { level: "read_only" as const, network: true, git_writable: false } };
    const html = renderToStaticMarkup(<SandboxControls sandbox={tools.sandbox} onSandbox={() => {}} />);
    expect(html).toMatch(/<span>Network<\/span><input type="checkbox" checked=""\/>/);
    expect(html).not.toContain(".git writable");
  });
});

describe("the sandbox on a command's card", () => {
  it("reads the level from the result's first line, full access flagged", () => {
    expect(sandboxOf("sandbox: workspace-write, network off\nexit code: 0\n")).toEqual({ text: "sandbox: workspace-write, network off", full: false });
    expect(sandboxOf("sandbox: none (full access)\nexit code: 1\n")).toEqual({ text: "no sandbox (full access)", full: true });
    expect(sandboxOf("sandbox: none, approved by the user (this machine has none: no bwrap)\n")).toEqual({ text: "no sandbox on this machine", full: true });
    expect(sandboxOf("exit code: 0\n")).toBeNull();
    expect(sandboxOf(undefined)).toBeNull();
  });
});

describe("a command's card around the sandbox", () => {
  const call = { id: "c", name: "run_command", arguments: '{"command":"touch ~/x"}' };
  const result = (output: string, error: string | null) => ({ type: "tool_result" as const, request_id: "c", status: error ? ("error" as const) : ("success" as const), output, error, recoverable: true, duration_ms: 4, finished_at: 0 });

  it("says the sandbox stopped it while the user decides, and after they kept it in", () => {
    const asking = renderToStaticMarkup(<ToolCard tool={{ call: { ...call, approval: "ask_unsandboxed" }, result: null }} />);
    expect(asking).toContain("blocked by the sandbox: asking to run it outside");
    const kept = renderToStaticMarkup(<ToolCard tool={{ call: { ...call, approval: "denied" }, result: result("sandbox: workspace-write, network off\nexit code: 1\n", "the command exited with 1; blocked by the sandbox: the sandbox refused a write") }} />);
    expect(kept).toContain('<span class="tool-state">blocked by the sandbox');
  });

  it("says a command the user let out ran outside the sandbox", () => {
    const html = renderToStaticMarkup(<ToolCard tool={{ call: { ...call, approval: "approved_unsandboxed" }, result: result("sandbox: none (full access)\nexit code: 0\n", null) }} />);
    expect(html).toContain("run outside the sandbox (you approved)");
    expect(html).toContain("sandbox-badge full-access");
  });

  it("a withheld output shows what the tool printed and offers to release it", () => {
    const call = { id: "c", name: "run_command", arguments: '{"command":"echo secret-api-key-0a1b2c3d | base64"}', approval: "approved" as const };
    const result = { type: "tool_result" as const, request_id: "c", status: "success" as const, output: "[output withheld: …]", error: null, recoverable: true, duration_ms: 3, finished_at: 0 };
    const held = { output: "c2stcHJvai1h\n", error: null, secrets: ["secret-api-key-0a1b2c3d"], released: false };
    const html = renderToStaticMarkup(<ToolCard tool={{ call, result, withheld: { message: 7, held } }} onRelease={() => undefined} />);
    expect(html).toContain("Kept from the model: this call ran with secret-api-key-0a1b2c3d");
    expect(html).toContain("c2stcHJvai1h");
    expect(html).toContain(">Release to the model</button>");
    expect(html).not.toContain("[output withheld");
    const busy = renderToStaticMarkup(<ToolCard tool={{ call, result, withheld: { message: 7, held } }} />);
    expect(busy).not.toContain("Release to the model</button>");
    const released = renderToStaticMarkup(<ToolCard tool={{ call, result: { ...result, output: "c2stcHJvai1h\n" }, withheld: { message: 7, held: { ...held, output: "", released: true } } }} />);
    expect(released).toContain("released to the model by you");
    expect(released).toContain("c2stcHJvai1h");
  });
});
