#!/usr/bin/env bash
# braid-core stays pure (DESIGN.md §3): no async runtime, no HTTP, no
# database may enter its dependency tree, not even through another crate.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=$(cargo tree -p braid-core -e normal --prefix none --locked)
bad=$(grep -E '^(tokio|reqwest|rusqlite|hyper|notify|mio) ' <<<"$tree" | sort -u || true)
if [ -n "$bad" ]; then
  echo "braid-core must stay pure, but its dependencies include:" >&2
  echo "$bad" >&2
  exit 1
fi
echo "braid-core: no tokio, reqwest, rusqlite, hyper, notify or mio among its dependencies"
