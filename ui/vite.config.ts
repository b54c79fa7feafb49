import { defineConfig } from "vitest/config";

// Node's, read at build time (the UI has no @types/node).
declare const process: { env: Record<string, string | undefined> };

// No React plugin: Vite's own transform compiles TSX with the automatic
// JSX runtime, which is all the build needs.
export default defineConfig({
  // The IPC measurement's page half ships only in the build `make
  // bench-ipc` makes (BRAID_IPC_BENCH=1); elsewhere it is not in the bundle.
  define: { __IPC_BENCH__: JSON.stringify(process.env.BRAID_IPC_BENCH === "1") },
  // Fonts (KaTeX's) stay files: the CSP allows no data: fonts.
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    assetsInlineLimit: 0,
    rolldownOptions: {
      // Radix marks its modules "use client" for server rendering, which a
      // single-page app has none of.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
  test: { environment: "node", include: ["src/**/*.test.ts", "src/**/*.test.tsx"] },
});
