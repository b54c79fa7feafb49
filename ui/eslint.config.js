// ESLint: TypeScript's recommended rules and the rules of hooks (a hook
// called conditionally, or an effect missing a dependency, is an error).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist", "node_modules", "src/generated", "e2e/out"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "@typescript-eslint/no-unused-vars": ["error", { varsIgnorePattern: "^_", argsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["e2e/**/*.mjs"],
    languageOptions: { globals: { console: "readonly", process: "readonly", document: "readonly", window: "readonly", setTimeout: "readonly", clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", URL: "readonly", Buffer: "readonly", fetch: "readonly", performance: "readonly", MutationObserver: "readonly", requestAnimationFrame: "readonly" } },
  },
);
