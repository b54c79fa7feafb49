// The Backend inside the desktop window: one `execute` command for every
// protocol command, and a Channel per subscription for the events.
import { Channel, invoke } from "@tauri-apps/api/core";
import type {
  BraidEvent,
  Command,
  ContextId,
  ContextSnapshot,
  ContextSummary,
  MessageId,
  NewMessage,
  SendReceipt,
  WireError,
} from "../generated/protocol";
import { Backend, BackendError } from "./types";

type Push = { kind: "snapshot"; snapshot: ContextSnapshot } | { kind: "event"; event: BraidEvent } | { kind: "lagged"; missed: number };

export class TauriBackend implements Backend {
  private async execute<T>(command: Command): Promise<T> {
    try {
      return await invoke<T>("execute", { command });
    } catch (e) {
      throw new BackendError(e as WireError);
    }
  }

  listContexts(): Promise<ContextSummary[]> {
    return this.execute({ type: "list_contexts" });
  }
  createContext(title?: string): Promise<ContextSummary> {
    return this.execute({ type: "create_context", title: title ?? null, working_dir: null });
  }
  deleteContext(id: ContextId): Promise<void> {
    return this.execute({ type: "delete_context", context_id: id });
  }
  loadContext(id: ContextId): Promise<ContextSnapshot> {
    return this.execute({ type: "load_context", context_id: id });
  }
  sendMessage(id: ContextId, message: NewMessage, queueIfBusy: boolean): Promise<SendReceipt> {
    return this.execute({ type: "send_message", context_id: id, message, queue_if_busy: queueIfBusy });
  }
  cancel(id: ContextId): Promise<void> {
    return this.execute({ type: "cancel", context_id: id });
  }
  retry(id: ContextId): Promise<void> {
    return this.execute({ type: "retry", context_id: id });
  }
  unqueue(id: ContextId, messageId: MessageId): Promise<void> {
    return this.execute({ type: "unqueue", context_id: id, message_id: messageId });
  }

  subscribe(id: ContextId, onSnapshot: (s: ContextSnapshot) => void, onEvent: (e: BraidEvent) => void): () => void {
    const channel = new Channel<Push>();
    channel.onmessage = (m) => {
      if (m.kind === "snapshot") onSnapshot(m.snapshot);
      else if (m.kind === "event") onEvent(m.event);
      else this.loadContext(id).then(onSnapshot, () => undefined);
    };
    let subscription: number | null = null;
    let closed = false;
    invoke<number>("subscribe", { contextId: id, onEvent: channel }).then((sid) => {
      if (closed) void invoke("unsubscribe", { id: sid });
      else subscription = sid;
    });
    return () => {
      closed = true;
      if (subscription !== null) void invoke("unsubscribe", { id: subscription });
    };
  }
}
