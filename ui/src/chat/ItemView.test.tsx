import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ItemView } from "./ItemView";

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
});
