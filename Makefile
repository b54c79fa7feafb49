# Braid: the two commands are `make run` and `make test`; both install what
# is missing first. See README.md.

SHELL := /bin/bash
CARGO ?= cargo
ARGS ?=
TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)

.PHONY: deps ui run serve chat test test-rust test-ui fmt lint generate bench clean

deps:
	@./scripts/install-deps.sh

## The UI's packages (exact versions from package-lock.json) and its build.
ui: deps
	cd ui && npm ci --no-audit --no-fund --loglevel=error && npm run build

## Starts Braid. With no display (no $$DISPLAY / $$WAYLAND_DISPLAY) that is
## the headless server with the UI, and it prints the URL to open; with a
## display, for now, the terminal chat (the desktop window comes with the
## desktop issue).
run: ui
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  $(CARGO) run -q -p braid-server --bin braid-server -- --ui ui/dist $(ARGS); \
	else \
	  $(CARGO) run -q -p braid-cli --bin braid -- $(ARGS); \
	fi

## The headless server (HTTP + SSE + the UI on 127.0.0.1:8420).
serve: ui
	$(CARGO) run -q -p braid-server --bin braid-server -- --ui ui/dist $(ARGS)

## The terminal chat.
chat: deps
	$(CARGO) run -q -p braid-cli --bin braid -- $(ARGS)

## Installs what is missing, then the whole check: formatting, lints with
## warnings denied, every Rust test (unit, property, end-to-end, crash, a
## real llama.cpp server), the UI's types and tests, and the UI in a real
## browser against the real server.
test: deps test-rust test-ui

test-rust:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	$(CARGO) test --workspace --locked

# `cargo test --no-run` builds the server binary with the same features as
# the Rust tests; `cargo build -p braid-server` would rebuild ~100 crates.
test-ui: ui
	$(CARGO) test -q --workspace --locked --no-run
	cd ui && npm run lint && npm test
	cd ui && BRAID_SERVER_BIN=$(TARGET_DIR)/debug/braid-server npm run e2e

fmt:
	$(CARGO) fmt --all

lint:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## Rewrites ui/src/generated/protocol.ts from the Rust protocol types.
generate:
	BRAID_UPDATE_TS=1 $(CARGO) test -q -p braid-protocol --test generated_ts

## Criterion benchmarks; results are summarised in docs/PERFORMANCE.md.
bench:
	$(CARGO) bench -p braid-core --bench transition
	$(CARGO) bench -p braid-store --bench store
	$(CARGO) bench -p braid-llm --bench sse

clean:
	$(CARGO) clean
	rm -rf ui/node_modules ui/dist
