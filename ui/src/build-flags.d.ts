// Set by vite.config.ts's `define` when the bundle is built.
declare const __IPC_BENCH__: boolean;
