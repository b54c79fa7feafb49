import { describe, expect, it } from "vitest";
import { BackendError } from "./types";
import { WebBackend } from "./web";

describe("WebBackend", () => {
  it("sends the token and the protocol command, and returns the answer", async () => {
    const seen: { url: string; init?: RequestInit }[] = [];
    const b = new WebBackend("http://h", "tok", async (url, init) => {
      seen.push({ url: String(url), init });
      return new Response(JSON.stringify({ message_id: 3, queued: true }), { status: 200 });
    });
    const receipt = await b.sendMessage("c1", { body: { type: "text", role: "user", parts: [{ kind: "text", text: "hi" }] }, images: [] }, true);
    expect(receipt).toEqual({ message_id: 3, queued: true });
    expect(seen[0].url).toBe("http://h/api/command");
    expect((seen[0].init?.headers as Record<string, string>).Authorization).toBe("Bearer tok");
    expect(JSON.parse(String(seen[0].init?.body))).toMatchObject({ type: "send_message", context_id: "c1", queue_if_busy: true });
  });

  it("turns {code, message} errors into BackendError with the code", async () => {
    const b = new WebBackend("http://h", "tok", async () =>
      new Response(JSON.stringify({ code: "agent_busy", message: "Braid is busy" }), { status: 409 }));
    const err = await b.cancel("c1").catch((e) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(err.code).toBe("agent_busy");
    expect(err.message).toBe("Braid is busy");
  });

  it("survives a body that is not JSON", async () => {
    const b = new WebBackend("http://h", "tok", async () => new Response("<html>bad gateway</html>", { status: 502 }));
    await expect(b.listContexts()).rejects.toMatchObject({ code: "internal", message: "HTTP 502" });
  });
});
