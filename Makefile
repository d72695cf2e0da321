# celwasm — one CEL engine, compiled once to WebAssembly, run by every host.
#
#   make demo    evaluate seed examples over real manifests and events through the module
#   make test    engine natively, the module through wazero and wasmtime-go, CLI, SDKs
#   make bench   every benchmark → build/bench/*.json → docs/benchmarks.md (BENCH_QUICK=1: short)
#   make wasm    build/celwasm.wasm (+ .sha256), embedded by the Go host
#
# Everything a fresh machine lacks is installed by the targets below.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

GO        ?= go
# Exact toolchain: the module's bytes depend on it (go.mod pins it too).
export GOTOOLCHAIN ?= go1.26.8
export GOFLAGS := -buildvcs=false

BUILD     := build
WASM      := $(BUILD)/celwasm.wasm
EMBED     := host/module/celwasm.wasm
CLI       := $(BUILD)/celwasm
WASM_SRCS := $(shell find wasm -name '*.go' -not -name '*_test.go') go.mod go.sum

# Reproducible module build: no paths, no VCS stamp, no build id.
WASM_GOFLAGS := -buildmode=c-shared -trimpath -ldflags='-s -w -buildid='

.PHONY: all wasm cli demo test test-go repro bench bench-go bench-crd bench-js bench-python bench-proxywasm bench-doc clean tools conformance conformance-corpus conformance-go test-js test-python proxywasm-module test-proxywasm

all: wasm cli

tools:
	@command -v $(GO) >/dev/null || { echo "Go is required (https://go.dev/dl)"; exit 1; }

$(WASM): $(WASM_SRCS) | tools
	@mkdir -p $(BUILD)
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_GOFLAGS) -o $@.tmp ./wasm/module
	@mv $@.tmp $@
	@sha256sum $@ | cut -d' ' -f1 > $@.sha256
	@echo "$(WASM): $$(stat -c %s $@) bytes, sha256 $$(cat $@.sha256)"

$(EMBED): $(WASM)
	cp $< $@
	cp $<.sha256 $@.sha256

wasm: $(EMBED)

cli: $(CLI)
$(CLI): $(EMBED) $(shell find cmd host -name '*.go' -not -name '*_test.go')
	$(GO) build -o $@ ./cmd/celwasm

# The seed examples (KEP rule table, Knative filters) over real input.
demo: $(CLI)
	./cmd/celwasm/demo.sh $(CLI)

# The Go hosts' conformance run writes out/conformance/*.jsonl first; the JS
# (Node, Chromium) runs are compared byte for byte against them.
test: test-go repro conformance-go test-proxywasm test-js test-python

# Engine natively, both Go runtimes, the CLI; the race detector on the
# concurrent host tests. The proxy-wasm filter module is built first so that
# host/proxywasm's tests never run against a stale one.
test-go: $(EMBED) proxywasm-module
	$(GO) vet ./...
	$(GO) test -count=1 ./wasm/... ./cmd/...
	$(GO) test -count=1 ./conformance/crd/
	$(GO) test -count=1 -run RefValStack github.com/google/cel-go/interpreter
	$(GO) test -count=1 -race ./host/...

# Two builds from scratch (fresh build cache, another directory) must give
# the recorded sha256.
repro: $(WASM)
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	cp -r wasm go.mod go.sum $$tmp/; \
	(cd $$tmp && GOCACHE=$$tmp/.gocache GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_GOFLAGS) -o $$tmp/second.wasm ./wasm/module); \
	second=$$(sha256sum $$tmp/second.wasm | cut -d' ' -f1); \
	if [ "$$second" != "$$(cat $(WASM).sha256)" ]; then echo "repro: MISMATCH $$second != $$(cat $(WASM).sha256)"; exit 1; fi; \
	echo "repro: second clean build has the same sha256 $$second"

# The cel-spec and Kubernetes corpus through native, wazero and wasmtime-go,
# compared with the expectations and each other; the table in docs/conformance.md.
conformance:
	$(MAKE) -C conformance run-go table
conformance-corpus:
	$(MAKE) -C conformance corpus
conformance-go:
	$(MAKE) -C conformance run-go

# The proxy-wasm filter: a second module from the same engine, run by a Go
# proxy-wasm host behind a reverse proxy on 127.0.0.1 (docs/proxy-wasm.md).
proxywasm-module:
	$(MAKE) -C wasm/proxywasm module
test-proxywasm:
	$(MAKE) -C wasm/proxywasm test

test-js: $(EMBED)
	$(MAKE) -C sdk-js test

test-python: $(EMBED) $(CLI)
	$(MAKE) -C sdk-python test

# The batch stages (wasm/stagebench) as a WASI command, timed natively and
# in both runtimes by celwasm-bench.
STAGEBENCH := $(BUILD)/stagebench.wasm
$(STAGEBENCH): $(WASM_SRCS) | tools
	@mkdir -p $(BUILD)
	GOOS=wasip1 GOARCH=wasm $(GO) build -trimpath -o $@ ./wasm/stagebench/cmd

# Every benchmark writes build/bench/<section>.json; celwasm-benchdoc renders
# them with docs/bench-targets.json into docs/benchmarks.md. One section alone:
# its target (e.g. make bench-go), then make bench-doc; the other sections keep
# their last results. BENCH_QUICK=1: a short run of every benchmark.
BENCH_QUICK ?=
BENCH_SHORT := $(if $(BENCH_QUICK),-short)
export BENCH_QUICK

bench: bench-go bench-crd bench-js bench-python bench-proxywasm
	$(MAKE) bench-doc

bench-go: $(EMBED) $(CLI) $(STAGEBENCH) proxywasm-module
	CELWASM_CLI=$(CLI) $(GO) run ./cmd/celwasm-bench $(BENCH_SHORT) -stages $(STAGEBENCH) -size $(BUILD)/celwasm-proxywasm.wasm -o $(BUILD)/bench
bench-crd: $(EMBED)
	$(GO) run ./cmd/celwasm-crd-bench $(BENCH_SHORT) -o $(BUILD)/bench
bench-js:
	$(MAKE) -C sdk-js bench
bench-python: $(EMBED) $(CLI)
	$(MAKE) -C sdk-python bench
bench-proxywasm:
	$(MAKE) -C wasm/proxywasm bench
bench-doc:
	$(GO) run ./cmd/celwasm-benchdoc -in $(BUILD)/bench -targets docs/bench-targets.json -o docs/benchmarks.md

clean:
	rm -rf $(BUILD) $(EMBED)
