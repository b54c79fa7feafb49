// The Backend over braid-server's HTTP API and SSE streams.
import type { BraidEvent, ContextId, ContextSnapshot, ContextSummary, MessageId, NewMessage, SendReceipt } from "../generated/protocol";
import { Backend, BackendError } from "./types";

type Fetch = typeof fetch;

export class WebBackend implements Backend {
  constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly fetcher: Fetch = (...args) => fetch(...args),
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.fetcher(`${this.base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      const error = await response.json().catch(() => ({ code: "internal", message: `HTTP ${response.status}` }));
      throw new BackendError(error);
    }
    return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
  }

  listContexts(): Promise<ContextSummary[]> {
    return this.call("GET", "/api/contexts");
  }
  createContext(title?: string): Promise<ContextSummary> {
    return this.call("POST", "/api/contexts", { title });
  }
  deleteContext(id: ContextId): Promise<void> {
    return this.call("DELETE", `/api/contexts/${encodeURIComponent(id)}`);
  }
  loadContext(id: ContextId): Promise<ContextSnapshot> {
    return this.call("GET", `/api/contexts/${encodeURIComponent(id)}`);
  }
  sendMessage(id: ContextId, message: NewMessage, queueIfBusy: boolean): Promise<SendReceipt> {
    return this.call("POST", "/api/command", {
      type: "send_message",
      context_id: id,
      message,
      queue_if_busy: queueIfBusy,
    });
  }
  cancel(id: ContextId): Promise<void> {
    return this.call("POST", `/api/contexts/${encodeURIComponent(id)}/cancel`);
  }

  async retry(id: ContextId): Promise<void> {
    await this.call("POST", "/api/command", { type: "retry", context_id: id });
  }
  async unqueue(id: ContextId, messageId: MessageId): Promise<void> {
    await this.call("POST", "/api/command", { type: "unqueue", context_id: id, message_id: messageId });
  }

  subscribe(id: ContextId, onSnapshot: (s: ContextSnapshot) => void, onEvent: (e: BraidEvent) => void): () => void {
    // EventSource cannot send headers: the token goes in the query.
    const url = `${this.base}/api/contexts/${encodeURIComponent(id)}/events?token=${encodeURIComponent(this.token)}`;
    const source = new EventSource(url);
    source.addEventListener("snapshot", (e) => onSnapshot(JSON.parse((e as MessageEvent).data)));
    for (const name of ["context_update", "content_delta", "content_final"]) {
      source.addEventListener(name, (e) => onEvent(JSON.parse((e as MessageEvent).data)));
    }
    // A reader that fell behind asks for a fresh snapshot.
    source.addEventListener("lagged", () => {
      this.loadContext(id).then(onSnapshot, () => undefined);
    });
    return () => source.close();
  }
}
