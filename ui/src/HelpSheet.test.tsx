import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HelpSheet } from "./HelpSheet";

describe("the keyboard shortcuts sheet", () => {
  it("lists the keys of every place, a message's among them", () => {
    const html = renderToStaticMarkup(<HelpSheet onClose={() => undefined} />);
    for (const where of ["Anywhere", "In the message box", "On a message (Tab to it)", "In the history graph", "In a tool approval"]) {
      expect(html).toContain(`<h3>${where}</h3>`);
    }
    expect(html).toContain("<kbd>Ctrl+/</kbd>");
    expect(html).toContain("copy it as Markdown");
  });
});
