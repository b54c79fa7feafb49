#!/usr/bin/env bash
# Runs the suites that talk to a real model N times on a clean clone of
# this repository's HEAD, to show they pass every time and not only once.
#
#   scripts/soak.sh [N]        N rounds (default 5)
#
# Each round runs every suite in SOAK_SUITES (default: all of them, below)
# and records its time and result; the end prints a table and a closing
# "P passed, F failed" line, and exits non-zero when any run failed. Logs
# are kept in $SOAK_DIR (default: a new folder under /tmp), one per run.
#
# The clone builds in a target directory of its own (SOAK_TARGET_DIR,
# default ~/.cache/braid-soak-target), never CI's: cargo keys a path
# crate's artifacts by its place in the workspace, not by the clone, so a
# soak build in CI's folder would hand a CI run binaries of another tree.
# The first soak builds cold; later ones reuse its cache. Load is the
# caller's business: run it beside `stress-ng --cpu 2` or a build to see
# the suites hold on a busy machine.
set -euo pipefail

rounds=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
export CARGO_TARGET_DIR=${SOAK_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/braid-soak-target}
export CARGO_TERM_COLOR=never
dir=${SOAK_DIR:-$(mktemp -d /tmp/braid-soak.XXXXXX)}
mkdir -p "$dir/logs"

# name|folder (relative to the clone)|command; $LLM_PEER_TEST and
# $LOCAL_MODEL_TEST are the test binaries found after the build.
all_suites=(
  "llm_peer|tests|\"\$LLM_PEER_TEST\" --test-threads 1"
  "local_model|tests|\"\$LOCAL_MODEL_TEST\""
  "peer.mjs|ui|node e2e/peer.mjs"
  "desktop.mjs|ui|node e2e/desktop.mjs"
  "desktop-local.mjs|ui|node e2e/desktop-local.mjs"
  "desktop-subagents.mjs|ui|node e2e/desktop-subagents.mjs"
  "desktop-team.mjs|ui|node e2e/desktop-team.mjs"
)
wanted=${SOAK_SUITES:-}
suites=()
for s in "${all_suites[@]}"; do
  name=${s%%|*}
  if [ -z "$wanted" ] || [[ " $wanted " == *" $name "* ]]; then suites+=("$s"); fi
done
[ ${#suites[@]} -gt 0 ] || { echo "soak: no suite matches SOAK_SUITES=$wanted" >&2; exit 2; }

clone=$dir/clone
echo "soak: cloning $(git -C "$root" rev-parse --short HEAD) into $clone" >&2
git clone --quiet --no-hardlinks "$root" "$clone"
cd "$clone"
echo "soak: building (logs in $dir/logs/build.log)" >&2
make build mcp-servers >"$dir/logs/build.log" 2>&1 ||
  { tail -30 "$dir/logs/build.log" >&2; exit 1; }
# The test binaries of that same build: `cargo test -p … --test …` would
# resolve other features and rebuild llama.cpp and its kin (~12 min).
test_binary() {
  make -s build-json |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == sys.argv[1] and m.get("executable"):
        print(m["executable"])' "$1"
}
LLM_PEER_TEST=$(test_binary llm_peer)
LOCAL_MODEL_TEST=$(test_binary local_model)
export LLM_PEER_TEST LOCAL_MODEL_TEST
[ -x "$LLM_PEER_TEST" ] && [ -x "$LOCAL_MODEL_TEST" ] || { echo "soak: test binaries not found" >&2; exit 1; }
export BRAID_SERVER_BIN=$CARGO_TARGET_DIR/debug/braid-server
export BRAID_DESKTOP_BIN=$CARGO_TARGET_DIR/debug/braid-desktop
export BRAID_SEED_BIN=$CARGO_TARGET_DIR/debug/examples/seed

passed=0
failed=0
table=()
for round in $(seq 1 "$rounds"); do
  for s in "${suites[@]}"; do
    IFS='|' read -r name folder command <<<"$s"
    log=$dir/logs/$round-$name.log
    start=$(date +%s)
    if (cd "$clone/$folder" && bash -c "$command") >"$log" 2>&1; then
      result=ok
      passed=$((passed + 1))
    else
      result=FAILED
      failed=$((failed + 1))
    fi
    took=$(($(date +%s) - start))
    table+=("$(printf '%-6s %-24s %-7s %5d s' "$round" "$name" "$result" "$took")")
    echo "soak: round $round/$rounds $name: $result in ${took} s" >&2
    if [ "$result" = FAILED ]; then tail -15 "$log" | sed 's/^/    /' >&2; fi
  done
done

printf '%-6s %-24s %-7s %7s\n' round suite result time
printf '%s\n' "${table[@]}"
echo "logs: $dir/logs"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
