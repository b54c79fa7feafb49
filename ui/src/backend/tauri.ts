// The Backend inside the desktop window: one `execute` command for every
// protocol command, and a Channel per subscription for the events.
import { Channel, invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import { open } from "@tauri-apps/plugin-dialog";
import type { BraidEvent, Command, ContextId, ContextSnapshot, ContextUpdate, ExportFormat, ResponseTo, WireError } from "../generated/protocol";
import { CommandBackend } from "./commands";
import { BackendError } from "./types";

// Only in the measurement's build (see vite.config.ts).
if (__IPC_BENCH__) void import("./ipcBench");

type Push = { kind: "snapshot"; snapshot: ContextSnapshot } | { kind: "event"; event: BraidEvent } | { kind: "lagged"; missed: number };

export class TauriBackend extends CommandBackend {
  protected async execute<C extends Command>(command: C): Promise<ResponseTo<C>> {
    try {
      return await invoke<ResponseTo<C>>("execute", { command });
    } catch (e) {
      throw new BackendError(e as WireError);
    }
  }

  showWindow(): Promise<void> {
    return invoke("show_window");
  }

  setWaiting(count: number): Promise<void> {
    return invoke("set_waiting", { count });
  }

  async pickFolder(start?: string): Promise<string | null> {
    const chosen = await open({ directory: true, multiple: false, defaultPath: start, title: "Choose the conversation's folder" });
    return typeof chosen === "string" ? chosen : null;
  }

  async pickModelFile(): Promise<string | null> {
    const chosen = await open({ multiple: false, directory: false, title: "Import a model", filters: [{ name: "GGUF models", extensions: ["gguf"] }] });
    return typeof chosen === "string" ? chosen : null;
  }

  /** GTK's save dialog, opened by Braid: the page never names a path. */
  saveExport(id: ContextId, format: ExportFormat, withSecrets = false): Promise<string | null> {
    return invoke<string | null>("save_export", { contextId: id, format, withSecrets }).catch((e) => {
      throw new BackendError(e as WireError);
    });
  }

  /** GTK's open dialog, opened by Braid (WebKitGTK opens none for a
   *  hidden file input): the chosen file's name and text. */
  openImport(): Promise<{ name: string; text: string } | null> {
    return invoke<{ name: string; text: string } | null>("open_import").catch((e) => {
      throw new BackendError(e as WireError);
    });
  }

  /** The page may not write the clipboard here; GTK does. */
  copyText(text: string): Promise<void> {
    return invoke("copy_text", { text });
  }

  clipboardImage(): Promise<string | null> {
    return invoke<string | null>("clipboard_image");
  }

  subscribe(id: ContextId, onSnapshot: (s: ContextSnapshot) => void, onEvent: (e: BraidEvent) => void, onLagged: () => void): () => void {
    const channel = new Channel<Push>();
    channel.onmessage = (m) => {
      if (m.kind === "snapshot") onSnapshot(m.snapshot);
      else if (m.kind === "event") onEvent(m.event);
      else onLagged();
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

  notify(title: string, body: string, contextId: ContextId): Promise<void> {
    return invoke("notify", { title, body, contextId });
  }

  onOpenContext(open: (id: ContextId) => void): () => void {
    const stop = listen<string>("open-context", (e) => open(e.payload));
    return () => void stop.then((f) => f());
  }

  subscribeStates(onUpdate: (u: ContextUpdate) => void, onLagged: () => void): () => void {
    const channel = new Channel<Push>();
    channel.onmessage = (m) => {
      if (m.kind === "event" && m.event.event === "context_update") onUpdate(m.event);
      else if (m.kind === "lagged") onLagged();
    };
    let subscription: number | null = null;
    let closed = false;
    invoke<number>("subscribe_states", { onEvent: channel }).then((sid) => {
      if (closed) void invoke("unsubscribe", { id: sid });
      else subscription = sid;
    });
    return () => {
      closed = true;
      if (subscription !== null) void invoke("unsubscribe", { id: subscription });
    };
  }
}
