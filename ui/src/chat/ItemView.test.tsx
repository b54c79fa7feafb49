import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ItemView } from "./ItemView";
import { EmptyChat, STARTERS } from "./EmptyChat";

const cut = { key: "m7", kind: "text" as const, role: "assistant" as const, text: "Once upon a", cut: true };

describe("a stored message", () => {
  it("offers Continue on a cut answer when it is the latest (after a reload too)", () => {
    const html = renderToStaticMarkup(<ItemView item={cut} onContinue={() => undefined} />);
    expect(html).toContain("Cut at the output limit");
    expect(html).toContain(">Continue</button>");
  });
  it("shows an older cut answer without Continue, and a fork button when it may fork", () => {
    const html = renderToStaticMarkup(<ItemView item={cut} onFork={() => undefined} />);
    expect(html).toContain("Cut at the output limit");
    expect(html).not.toContain("Continue</button>");
    expect(html).toContain('aria-label="Fork from here"');
  });
  it("marks an answer the user stopped, with Continue when it is the latest", () => {
    const stopped = { key: "m8", kind: "text" as const, role: "assistant" as const, text: "Once upon", stopped: true };
    const html = renderToStaticMarkup(<ItemView item={stopped} onContinue={() => undefined} />);
    expect(html).toContain('data-testid="stopped-marker"');
    expect(html).toContain(">Stopped<");
    expect(html).toContain(">Continue</button>");
    expect(html).not.toContain("Cut at the output limit");
  });
  it("offers Retry on a crash note that lost an answer, when it is the latest", () => {
    const note = { key: "m9", kind: "system" as const, text: "Recovered after a crash: The partial answer was not kept; press Retry to ask again.", retry: true };
    expect(renderToStaticMarkup(<ItemView item={note} onContinue={() => undefined} />)).toContain(">Retry</button>");
    expect(renderToStaticMarkup(<ItemView item={note} />)).not.toContain("Retry</button>");
  });
  it("can be reached by Tab and offers copy and raw text beside fork", () => {
    const answer = { key: "m3", kind: "text" as const, role: "assistant" as const, text: "**done**" };
    const html = renderToStaticMarkup(<ItemView item={answer} onFork={() => undefined} onAgain={() => undefined} />);
    expect(html).toContain('tabindex="0"');
    for (const label of ["Copy as Markdown", "Show raw text", "Fork from here", "Answer again"]) expect(html).toContain(`aria-label="${label}"`);
    expect(html).not.toContain('aria-label="Edit and send again"');
    expect(html).toContain("<strong>done</strong>");
  });
  it("shows the versions of an edited question where it was edited, ‹ › off at the ends", () => {
    const q = { key: "m5", kind: "text" as const, role: "user" as const, text: "Say hi" };
    const first = renderToStaticMarkup(<ItemView item={q} versions={{ index: 1, total: 3, onNext: () => undefined }} />);
    expect(first).toContain('aria-label="Version 1 of 3"');
    expect(first).toMatch(/aria-label="Previous version"[^>]*disabled/);
    expect(first).not.toMatch(/aria-label="Next version"[^>]*disabled/);
    expect(renderToStaticMarkup(<ItemView item={q} />)).not.toContain("Version");
  });
  it("marks a file reference the last request left out, with Keep in context", () => {
    const file = { key: "m4", kind: "file" as const, label: "notes.md", content: "x", error: null };
    const left = renderToStaticMarkup(<ItemView item={file} keep={{ leftOut: true, kept: false, onKeep: () => undefined }} />);
    expect(left).toContain('data-testid="left-out-mark"');
    expect(left).toContain("Left out of the last request to fit the window");
    expect(left).toContain(">Keep in context</button>");
    const kept = renderToStaticMarkup(<ItemView item={file} keep={{ leftOut: false, kept: true, onKeep: () => undefined }} />);
    expect(kept).toContain("Kept in context");
    expect(kept).toContain(">Stop keeping</button>");
  });
});

describe("an empty conversation", () => {
  it("names who answers and where, and offers ways to begin", () => {
    const model = { provider_id: null, provider_name: "Local", model: "qwen2.5", context_window: 4096, vision: false, tools: false } as never;
    const html = renderToStaticMarkup(<EmptyChat model={model} folder="/home/me/project" onPick={() => {}} />);
    expect(html).toContain("Local · qwen2.5");
    expect(html).toContain("/home/me/project");
    for (const s of STARTERS) expect(html).toContain(s);
    expect(renderToStaticMarkup(<EmptyChat model={null} folder="/" onPick={() => {}} />)).toContain("open Settings to add one");
  });
});
