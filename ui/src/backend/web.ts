// The Backend over braid-server's HTTP API: every command to /api/command,
// the events of a context as an SSE stream.
import type { BraidEvent, Command, ContextId, ContextSnapshot, ContextUpdate, ResponseTo } from "../generated/protocol";
import { CommandBackend } from "./commands";
import { BackendError } from "./types";

type Fetch = typeof fetch;

export class WebBackend extends CommandBackend {
  constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly fetcher: Fetch = (...args) => fetch(...args),
  ) {
    super();
  }

  protected async execute<C extends Command>(command: C): Promise<ResponseTo<C>> {
    const response = await this.fetcher(`${this.base}/api/command`, {
      method: "POST",
      headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(command),
    });
    if (!response.ok) {
      const error = await response.json().catch(() => ({ code: "internal", message: `HTTP ${response.status}` }));
      throw new BackendError(error);
    }
    return response.status === 204 ? (undefined as ResponseTo<C>) : ((await response.json()) as ResponseTo<C>);
  }

  subscribe(id: ContextId, onSnapshot: (s: ContextSnapshot) => void, onEvent: (e: BraidEvent) => void, onLagged: () => void): () => void {
    // EventSource cannot send headers: the token goes in the query.
    const url = `${this.base}/api/contexts/${encodeURIComponent(id)}/events?token=${encodeURIComponent(this.token)}`;
    const source = new EventSource(url);
    source.addEventListener("snapshot", (e) => onSnapshot(JSON.parse((e as MessageEvent).data)));
    for (const name of ["context_update", "content_delta", "content_final"]) {
      source.addEventListener(name, (e) => onEvent(JSON.parse((e as MessageEvent).data)));
    }
    // A reader that fell behind needs a fresh snapshot.
    source.addEventListener("lagged", () => onLagged());
    return () => source.close();
  }

  subscribeStates(onUpdate: (u: ContextUpdate) => void, onLagged: () => void): () => void {
    const source = new EventSource(`${this.base}/api/events?states=true&token=${encodeURIComponent(this.token)}`);
    source.addEventListener("context_update", (e) => onUpdate(JSON.parse((e as MessageEvent).data)));
    source.addEventListener("lagged", () => onLagged());
    return () => source.close();
  }
}
