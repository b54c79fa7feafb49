import { defineConfig } from "vitest/config";

// No React plugin: Vite's own transform compiles TSX with the automatic
// JSX runtime, which is all the build needs.
export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  test: { environment: "node", include: ["src/**/*.test.ts", "src/**/*.test.tsx"] },
});
