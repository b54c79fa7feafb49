# Braid: the two commands are `make run` and `make test`; both install what
# is missing first. See README.md.

SHELL := /bin/bash
CARGO ?= cargo
ARGS ?=

.PHONY: deps run serve test fmt lint generate bench clean

deps:
	@./scripts/install-deps.sh

## Installs what is missing, builds, and starts Braid (for now the terminal
## chat; the desktop app comes with the desktop issue).
run: deps
	$(CARGO) run -q -p braid-cli --bin braid -- $(ARGS)

## The headless server (HTTP + SSE on 127.0.0.1:8420); prints the URL.
serve: deps
	$(CARGO) run -q -p braid-server --bin braid-server -- $(ARGS)

## Installs what is missing, then the whole check: formatting, lints with
## warnings denied, every test (unit, property, end-to-end, crash).
test: deps
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	$(CARGO) test --workspace --locked

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

clean:
	$(CARGO) clean
