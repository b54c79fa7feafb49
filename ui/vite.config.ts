import { defineConfig } from "vitest/config";

// No React plugin: Vite's own transform compiles TSX with the automatic
// JSX runtime, which is all the build needs.
export default defineConfig({
  // Fonts (KaTeX's) stay files: the CSP allows no data: fonts.
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, assetsInlineLimit: 0 },
  test: { environment: "node", include: ["src/**/*.test.ts", "src/**/*.test.tsx"] },
});
