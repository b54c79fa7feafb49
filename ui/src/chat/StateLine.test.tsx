import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StateLine } from "./StateLine";

const failed = {
  state: "failed" as const,
  error_code: "network" as const,
  message: "could not reach Local: nothing answers at 127.0.0.1:8089 (connection refused) — is the server running? (gave up after 3 retries)",
  recoverable: true,
};

describe("the state line", () => {
  it("says a failure once, not again as a notice", () => {
    const notice = { code: "network" as const, message: "could not reach Local: nothing answers at 127.0.0.1:8089 (connection refused) — is the server running?" };
    const html = renderToStaticMarkup(<StateLine status={failed} notice={notice} onRetry={() => undefined} />);
    expect(html).not.toContain(" · could not reach");
    expect(html).toContain(">Retry</button>");
  });
  it("keeps a notice that says something else", () => {
    const notice = { code: "streaming_unavailable" as const, message: "this server cannot stream tool calls" };
    const html = renderToStaticMarkup(<StateLine status={failed} notice={notice} onRetry={() => undefined} />);
    expect(html).toContain(" · this server cannot stream tool calls");
  });
});
