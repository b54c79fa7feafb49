import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FilesPanel } from "./FilesPanel";

describe("the files in play", () => {
  it("mark a change made while Braid was closed apart from a live one", () => {
    const html = renderToStaticMarkup(
      <FilesPanel
        files={[
          { path: "plan.md", state: "changed_outside", while_closed: true },
          { path: "notes.md", state: "changed_outside", while_closed: false },
          { path: "old.md", state: "deleted", while_closed: true },
          { path: "lib.rs", state: "fresh", while_closed: false },
        ]}
      />,
    );
    expect(html).toContain("Files in play (4)");
    expect(html).toContain("plan.md<span");
    expect(html).toContain(">changed while Braid was closed</span>");
    expect(html).toContain(">changed outside Braid</span>");
    expect(html).toContain(">deleted while Braid was closed</span>");
    expect(html.match(/class="badge warn"/g)).toHaveLength(4);
    expect(html).toContain('Files in play (4)<span class="badge warn">changed outside</span>');
  });
  it("says in its summary when every change was made while Braid was closed", () => {
    const html = renderToStaticMarkup(<FilesPanel files={[{ path: "plan.md", state: "changed_outside", while_closed: true }]} />);
    expect(html).toContain('Files in play (1)<span class="badge warn">changed while Braid was closed</span>');
  });
  it("is not there before the agent touched a file", () => {
    expect(renderToStaticMarkup(<FilesPanel files={[]} />)).toBe("");
  });
});
