import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MemberColours } from "./colours";
import { RouteBar } from "./RouteBar";

const none = () => undefined;

describe("the route of a team's turns", () => {
  it("shows who answers, who follows, each in its colour", () => {
    const route = { running: "max", queue: ["sarah", "carol"], agent_turns: 1, queued_total: 3, paused: false };
    const html = renderToStaticMarkup(
      <MemberColours.Provider value={{ max: "#1d4ed8" }}>
        <RouteBar route={route} onSteer={none} />
      </MemberColours.Provider>,
    );
    expect(html).toContain('<strong style="color:#1d4ed8">max</strong> is answering');
    expect(html).toContain('aria-label="Skip sarah (place 1)"');
    expect(html).toContain('aria-label="Skip carol (place 2)"');
    expect(html).toContain("Stop the chain");
    expect(html).not.toContain("Resume");
  });
  it("offers Resume after a pause, and nothing without a chain", () => {
    const paused = { queue: ["max"], agent_turns: 5, queued_total: 6, paused: true };
    const html = renderToStaticMarkup(<RouteBar route={paused} onSteer={none} />);
    expect(html).toContain("Paused after 5 turns in a row without you.");
    expect(html).toContain(">Resume</button>");
    expect(renderToStaticMarkup(<RouteBar route={null} onSteer={none} />)).toBe("");
  });
});
