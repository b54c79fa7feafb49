#!/usr/bin/env bash
# Every request to a model is finished in one place (issue #64): the
# runtime's `outbound::finish` hides the secrets of all its texts, and
# only the two executors that stream take the `Finished` request it makes.
# A provider asked anywhere else — in the runtime or a shell — would send
# what no filter saw; this fails the build when one is.
set -euo pipefail
cd "$(dirname "$0")/.."
allowed='^crates/braid-runtime/src/(llm_task|complete)\.rs:'
bad=$(grep -rnE '\.(stream|count_tokens|count_request)\(' crates/braid-runtime/src crates/braid-server/src crates/braid-cli/src src-tauri/src \
  --include='*.rs' | grep -vE "$allowed" | grep -vE 'fn (stream|count_tokens)|(model_count|actor/breakdown)\.rs:.*count_(tokens|request)' || true)
if [ -n "$bad" ]; then
  echo "a provider is asked outside llm_task.rs and complete.rs (finish the request with outbound::finish and send it there):" >&2
  echo "$bad" >&2
  exit 1
fi
if ! grep -q 'request: Finished' crates/braid-runtime/src/llm_task.rs crates/braid-runtime/src/complete.rs; then
  echo "llm_task.rs and complete.rs must take the Finished request only" >&2
  exit 1
fi
echo "requests: every one is finished in outbound.rs and sent from llm_task.rs or complete.rs"
