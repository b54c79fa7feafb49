// The one interface the UI talks to. A Tauri implementation (desktop) and
// an HTTP/SSE one (browser) both provide it; components never call a
// transport directly.
import type { BraidEvent, Commands, ContextId, ContextSnapshot, ContextUpdate, ExportFormat, WireError } from "../generated/protocol";

/** Every protocol command as a method (generated from the Rust list of
 *  commands), plus what only a transport or the desktop window gives. */
export interface Backend extends Commands {
  /** The current snapshot first, then every event of the context;
   *  `onLagged` when the reader fell behind and events were dropped. */
  subscribe(id: ContextId, onSnapshot: (s: ContextSnapshot) => void, onEvent: (e: BraidEvent) => void, onLagged: () => void): () => void;
  /** Every conversation's changes of state (busy, waiting for approval,
   *  failed, idle again), for the list; `onLagged` when some were missed
   *  (the list is loaded again). */
  subscribeStates(onUpdate: (u: ContextUpdate) => void, onLagged: () => void): () => void;
  /** The system's notification (the desktop window); a click on it comes
   *  back through `onOpenContext`. A browser uses its Notification API. */
  notify?(title: string, body: string, contextId: ContextId): Promise<void>;
  /** A notification clicked: the conversation to open. */
  onOpenContext?(open: (id: ContextId) => void): () => void;
  /** The system's folder picker (the desktop window), starting at
   *  `start`; `null` when closed without a choice. Absent in browsers,
   *  where the path is typed. */
  pickFolder?(start?: string): Promise<string | null>;
  /** The desktop window, hidden until the first screen is ready, shows. */
  showWindow?(): Promise<void>;
  /** How many conversations wait for the user, for the tray beside the
   *  desktop window's title. */
  setWaiting?(count: number): Promise<void>;
  /** The system's file picker for a GGUF model (the desktop window);
   *  `null` when closed without a choice. Absent in browsers. */
  pickModelFile?(): Promise<string | null>;
  /** The desktop window: exports straight to a file the user picks in
   *  the system's save dialog; answered by its path, null if cancelled. */
  saveExport?(id: ContextId, format: ExportFormat, withSecrets?: boolean): Promise<string | null>;
  /** The window's own open dialog for an import: the file's name and text. */
  openImport?(): Promise<{ name: string; text: string } | null>;
  /** The system clipboard's image as PNG (Base64), where the page cannot
   *  read it from the paste event (the desktop window); absent in
   *  browsers, which deliver pasted files themselves. */
  clipboardImage?(): Promise<string | null>;
}

/** An error from the backend, carrying the wire code the UI switches on. */
export class BackendError extends Error {
  readonly code: WireError["code"];
  constructor(error: WireError) {
    super(error.message);
    this.code = error.code;
  }
}
