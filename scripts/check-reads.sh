#!/usr/bin/env bash
# Every body read whole from a server is bounded in bytes and in time
# (issue #65): product code reads it through `braid_llm::http::capped_text`
# (crates/braid-llm/src/http/body.rs), the one audited helper. A
# reqwest `.json()`, `.text()` or `.bytes()` elsewhere, or a
# `read_to_end` of what another process or a file sends, would let a
# hostile server or file take as much memory and time as it likes; this
# fails the build when one appears.
set -euo pipefail
cd "$(dirname "$0")/.."
# Two read_to_end are allowed: Braid's own checkpoint objects (written by
# it, each inflated to the size it recorded), and the plain-file helper
# (crates/braid-workspace/src/plain.rs), which reads one byte past its cap
# to tell a file that is too large.
allowed='^crates/braid-llm/src/http/body\.rs:|^crates/braid-checkpoint/src/objects\.rs:.*DeflateDecoder|^crates/braid-workspace/src/plain\.rs:.*\.take\('
bad=$(grep -rnE '\.(json|text|bytes)(::<[^(]*>)?\(\)(\s*$|\s*\.await)|read_to_end\(' \
  crates/*/src src-tauri/src --include='*.rs' \
  | grep -vE '(_tests|/tests)\.rs:|/tests/' \
  | grep -vE "$allowed" || true)
# Unit tests inside a file (after `#[cfg(test)]`) may read whole.
real=""
while IFS= read -r hit; do
  [ -z "$hit" ] && continue
  file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}
  tests_from=$(grep -n '^#\[cfg(test)\]' "$file" | head -1 | cut -d: -f1 || true)
  if [ -n "$tests_from" ] && [ "$line" -gt "$tests_from" ]; then continue; fi
  real+="$hit"$'\n'
done <<< "$bad"
if [ -n "$real" ]; then
  echo "a body or stream is read whole without a bound (use braid_llm::http::capped_text, or read it capped):" >&2
  printf '%s' "$real" >&2
  exit 1
fi
echo "reads: every body from a server is read through capped_text, bounded in bytes and time"
