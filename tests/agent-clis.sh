#!/usr/bin/env bash
# The real coding CLIs, pinned, from npm: installed once into a cache
# outside the clone (BRAID_AGENT_CLIS_DIR, default ~/.cache/braid-agent-clis)
# and reused; prints the folder holding `claude`, `codex` and `gemini`.
# The team test runs them signed out, to see Braid find them and say so.
set -euo pipefail
dir="${BRAID_AGENT_CLIS_DIR:-$HOME/.cache/braid-agent-clis}"
packages="@anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0 @google/gemini-cli@0.61.0"
if [ "$(cat "$dir/.installed" 2>/dev/null)" != "$packages" ]; then
  mkdir -p "$dir"
  # shellcheck disable=SC2086 # one word per package
  npm install --prefix "$dir" --no-audit --no-fund --no-save $packages >&2
  echo "$packages" > "$dir/.installed"
fi
echo "$dir/node_modules/.bin"
