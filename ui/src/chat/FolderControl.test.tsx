import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FolderControl } from "./FolderControl";

const move = () => Promise.resolve();

describe("the folder control", () => {
  it("shows the folder, and that the home folder asks before reading", () => {
    const html = renderToStaticMarkup(<FolderControl folder="/home/me" onMove={move} broad busy={false} />);
    expect(html).toContain('<code title="/home/me">/home/me</code>');
    expect(html).toContain("Change…");
    expect(html).toContain("Your home folder or one above it: Braid asks before the first read.");
    const project = renderToStaticMarkup(<FolderControl folder="/home/me/project" onMove={move} broad={false} busy={false} />);
    expect(project).not.toContain("asks before");
  });
  it("cannot move while the conversation is busy, and says so", () => {
    const html = renderToStaticMarkup(<FolderControl folder="/p" onMove={move} broad={false} busy />);
    expect(html).toMatch(/<button type="button" disabled="" title="Wait until the conversation is idle">Change…<\/button>/);
  });
});
