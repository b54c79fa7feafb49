import { defineConfig } from "vitest/config";

// No React plugin: Vite's own transform compiles TSX with the automatic
// JSX runtime, which is all the build needs.
export default defineConfig({
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
