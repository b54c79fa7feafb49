// Every Backend method but `subscribe` (and the window's extras) is one
// protocol command, generated as `CommandClient` from the Rust list of
// commands; the transports only say how a command travels.
import { CommandClient } from "../generated/protocol";
import type { BraidEvent, ContextId, ContextSnapshot, ContextUpdate } from "../generated/protocol";
import type { Backend } from "./types";

export abstract class CommandBackend extends CommandClient implements Backend {
  abstract subscribe(id: ContextId, onSnapshot: (s: ContextSnapshot) => void, onEvent: (e: BraidEvent) => void, onLagged: () => void): () => void;
  abstract subscribeStates(onUpdate: (u: ContextUpdate) => void, onLagged: () => void): () => void;
}
