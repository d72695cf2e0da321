# celwasm — one CEL engine, compiled once to WebAssembly, run by every host.
#
#   make demo    evaluate seed examples over real manifests and events through the module
#   make test    engine natively, the module through wazero and wasmtime-go, CLI, SDKs
#   make bench   every benchmark → build/bench/*.json → docs/benchmarks.md (BENCH_QUICK=1: short)
#   make wasm    build/celwasm.wasm, build/celwasm-full.wasm and build/celwasm-admission.wasm
#                (+ .sha256), and the compressed copies the Go host embeds (RATIONALE.md, "Two modules")
#   make repro   a second build of every module from a fresh build cache: the same sha256 or it fails
#   make dist    dist/: the npm tarball, the wheel and the sdist (version: VERSION)
#   make extism  build/celwasm-extism.wasm, the Extism plugin (docs/extism.md)
#   make fuzz    every fuzz target for FUZZTIME executions; make soak: a million evaluations per host, memory flat
#   make profile where one call's time goes: pprof natively, node --cpu-prof of the module → build/profiles/
#   make pgo     the CPU profile the expression module is built with (go build -pgo), from its benchmarks
#   make profile-crd  where a CRD validation's time and allocations go, natively with the copies → build/profiles/
#   make profile-proxywasm  where an Envoy request's time goes in the filter: natively, and the module under V8 → build/profiles/
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
# The expression module and the module that serves every request (wasm/module/celwasm,
# wasm/module/celwasm-full); hosts load the second only for CRD validation and Knative's
# attrs/cesql filters; the third (wasm/module/celwasm-admission) only for admission policies.
WASM      := $(BUILD)/celwasm.wasm
WASM_FULL := $(BUILD)/celwasm-full.wasm
WASM_ADM  := $(BUILD)/celwasm-admission.wasm
EMBED     := host/module/celwasm.wasm.zst
EMBED_FULL := host/module/celwasm-full.wasm.zst
EMBED_ADM := host/module/celwasm-admission.wasm.zst
MODULES   := celwasm celwasm-full celwasm-admission
CLI       := $(BUILD)/celwasm
# The native cel-go baselines of the benchmarks (rules below, with STAGEBENCH;
# defined here so that test-go's prerequisites see them).
CELGO_UPSTREAM := $(BUILD)/bin/celgo-upstream
CELGO_FORK     := $(BUILD)/bin/celgo-fork
CELGO_BASE_SRCS := $(wildcard cmd/celwasm-bench/upstream/*.go) cmd/celwasm-bench/upstream/go.mod cmd/celwasm-bench/upstream/go.sum
WASM_SRCS := $(shell find wasm wire -name '*.go' -not -name '*_test.go') go.mod go.sum

# Reproducible module build: no paths, no VCS stamp, no build id. The modules
# build with go.mod plus the replace directives of the patched copies only they
# link (wasm/third_party/modfile.sh); native code keeps go.mod.
WASM_MOD     := $(BUILD)/wasm.mod
# The admission module also links the k8s.io/api, client-go and structured-merge-diff copies.
WASM_MOD_ADMISSION := $(BUILD)/wasm-admission.mod
WASM_GOFLAGS := -buildmode=c-shared -trimpath -ldflags='-s -w -buildid='
# The expression module (and the stage benchmark that times its code) is built
# with the committed CPU profile of its hot paths (make pgo), hot call edges up to
# 70% of the profile's weight inlined, so that it stays under 20 MB (RATIONALE.md,
# "Profile-guided optimisation of the expression module").
PGO_PROFILE  := wasm/module/celwasm/celwasm.pgo
PGO_FLAGS    := -pgo=$(PGO_PROFILE) -gcflags=all=-d=pgoinlinecdfthreshold=70
WASM_PGO     := celwasm
wasm_pgo      = $(if $(filter $(1),$(WASM_PGO)),$(PGO_FLAGS))
$(WASM): $(PGO_PROFILE)
# The expression module, which every host loads at start, and the admission
# module (over its 40 MB budget as Go links it) are linked by Go and then shrunk
# by wasm-opt -Oz (wasm/binaryen.mk; RATIONALE.md, "Modules through wasm-opt").
# wasm-opt runs on one core for minutes, so `make wasm` builds the modules two at
# a time; demo and cli build them through it first, test through test-modules.
include wasm/binaryen.mk
WASM_OPTIMIZED := celwasm celwasm-admission

.PHONY: test-modules soak fuzz fuzz-smoke dist test-dist check-version check-embed all wasm cli demo test test-go repro bench clean tools conformance conformance-corpus conformance-go test-js test-python pgo profile profile-crd profile-proxywasm proxywasm-module test-proxywasm extism test-extism bench-go bench-crd bench-js bench-python bench-proxywasm bench-extism bench-doc

all: wasm cli

tools:
	@command -v $(GO) >/dev/null || { echo "Go is required (https://go.dev/dl)"; exit 1; }

# The admission module (and the probe that measures what its upstream APIs
# cost) also build with the k8s.io/api, client-go and structured-merge-diff copies (modfile.sh
# admission; RATIONALE.md, "Admission module size").
WASM_ADMISSION_FLAVOURED := celwasm-admission admission-probe
wasm_flavour = $(if $(filter $(1),$(WASM_ADMISSION_FLAVOURED)),admission)
wasm_modfile = $(if $(call wasm_flavour,$(1)),$(WASM_MOD_ADMISSION),$(WASM_MOD))

$(BUILD)/%.wasm: $(WASM_SRCS) | tools $(WASM_OPT)
	@mkdir -p $(BUILD)
	GO=$(GO) ./wasm/third_party/modfile.sh $(call wasm_modfile,$*) $(call wasm_flavour,$*)
	GOOS=wasip1 GOARCH=wasm $(GO) build -modfile=$(call wasm_modfile,$*) $(WASM_GOFLAGS) $(call wasm_pgo,$*) -o $@.linked.tmp ./wasm/module/$*
	$(if $(filter $*,$(WASM_OPTIMIZED)),$(WASM_OPT) $(WASM_OPT_FLAGS) $@.linked.tmp -o $@.tmp,mv $@.linked.tmp $@.tmp)
	@rm -f $@.linked.tmp
	@mv $@.tmp $@
	@sha256sum $@ | cut -d' ' -f1 > $@.sha256
	@echo "$@: $$(stat -c %s $@) bytes, sha256 $$(cat $@.sha256)"

# The Go host embeds both modules compressed (host/module), committed so that
# `go get` needs no build step; check-embed fails when the committed bytes
# differ from this build.
host/module/%.wasm.zst: $(BUILD)/%.wasm
	$(GO) run ./host/module/compress $< $@
	cp $<.sha256 host/module/$*.wasm.sha256
	@echo "$@: $$(stat -c %s $@) bytes"

# The admission module first: its wasm-opt, the longest (minutes on one core),
# overlaps the other builds.
MODULE_EMBEDS := $(EMBED_ADM) $(EMBED) $(EMBED_FULL)
wasm:
	$(MAKE) -j2 $(MODULE_EMBEDS)

cli: wasm $(CLI)
$(CLI): $(EMBED) $(EMBED_FULL) $(EMBED_ADM) $(shell find cmd host -name '*.go' -not -name '*_test.go')
	$(GO) build -o $@ ./cmd/celwasm

# The seed examples (KEP rule table, Knative filters) over real input.
demo: wasm $(CLI)
	./cmd/celwasm/demo.sh $(CLI)

# The Go hosts' conformance run writes out/conformance/*.jsonl first; the JS
# (Node, Chromium) runs are compared byte for byte against them.
test: check-version test-modules test-go check-embed conformance-go fuzz-smoke test-proxywasm test-js test-python test-extism test-dist

# make wasm's modules and the proxy-wasm filter, two at a time.
test-modules:
	$(MAKE) -j2 $(MODULE_EMBEDS) proxywasm-module

# Engine natively, both Go runtimes (and wazero's interpreter), the CLI; the
# race detector on the host tests where the host's code runs on more than one
# goroutine: a shared pool, an interrupt from a context, an instance replaced
# after a trap, a close (RATIONALE.md, "The race detector where goroutines
# meet"; host/envoy, the filter in Envoy, runs in test-proxywasm). The cel-go
# fork: its patch tests (the fork keeps no other tests), natively and, for the
# interpreter, cel, common/types, common/stdlib and internal/itab packages, also
# built for wasip1 and run by wazero's CLI (patches 0008 and 0016 change only
# that build), with the batch and eval_activation
# tests that require the handler to keep no reference into a request (cel-go's
# pooled objects there are the free list), and the check that it is upstream
# v0.29.2 plus patches/*.patch (the klog copy's check runs in test-proxywasm).
# The CRD differential test (conformance/crd) runs once, in conformance-go.
# go test of packages built for wasip1 and run by the wazero CLI (build/bin,
# go.mod's version) through Go's own exec wrapper. wasm/abi's test binary links
# the Kubernetes libraries: wazero's interpreter runs its four tests in 40 s,
# where its compiler took 174 s compiling the binary first.
WASIP1_TEST = PATH="$(CURDIR)/build/bin:$$PATH" GOWASIRUNTIME=wazero GOOS=wasip1 GOARCH=wasm \
	$(GO) test -count=1 -exec "$$($(GO) env GOROOT)/lib/wasm/go_wasip1_wasm_exec"
# The cel-go fork's packages with patch tests, run natively and as wasip1
# builds (common/types/pb, whose patch changes no wasm-only code, natively only).
CELGO_PATCH_TESTS := $(addprefix github.com/google/cel-go/,interpreter cel common/types common/stdlib internal/itab)
HOST_RACE_TESTS := TestConcurrentEvalsNeverMix|TestCancellation|TestCRDValidationCancellation|TestTrapRecovery|TestProgramClose
test-go: $(EMBED) $(EMBED_FULL) $(EMBED_ADM) $(CELGO_UPSTREAM) $(CELGO_FORK) proxywasm-module
	$(GO) vet ./...
	$(GO) run ./cmd/celwasm-bench -native-only -short -rounds 1 -upstream $(CELGO_UPSTREAM) -fork $(CELGO_FORK) >/dev/null
	$(GO) test -count=1 ./wire/... ./wasm/... ./cmd/... ./internal/...
	$(GO) test -count=1 $(CELGO_PATCH_TESTS) github.com/google/cel-go/common/types/pb
	$(GO) build -o build/bin/wazero github.com/tetratelabs/wazero/cmd/wazero
	$(WASIP1_TEST) $(CELGO_PATCH_TESTS)
	GOWASIRUNTIMEARGS=-interpreter $(WASIP1_TEST) -run 'TestEvalBatch(KeepsNoReferenceToItsRequest|OverAReusedBuffer)|TestEvalActivation(InPlace|ReturnsActivationObjects)' ./wasm/abi
	wasm/third_party/check-cel-go.sh
	GO=$(GO) ./wasm/third_party/modfile.sh $(WASM_MOD_ADMISSION) admission
	$(GO) test -count=1 -modfile=$(WASM_MOD_ADMISSION) -run Patch $$(./wasm/third_party/patch-tests.sh apiserver apimachinery apiextensions-apiserver api client-go kube-openapi structured-merge-diff cloudevents-sql)
	$(GO) test -count=1 -modfile=$(WASM_MOD_ADMISSION) github.com/cloudevents/sdk-go/sql/v2/test
	CELWASM_ENVOY_TESTS=skip $(GO) test -count=1 ./host/...
	$(GO) test -count=1 -race -run '$(HOST_RACE_TESTS)' ./host
	CELWASM_CONCURRENCY_EVALS=100000 $(GO) test -count=1 -race -run 'TestConcurrentEvalsNeverMix/wasmtime' ./host

# The committed compressed modules must be this tree's reproducible builds:
# on CI's fresh machine, where nothing of this tree is cached, this is make
# test's reproducibility check (RATIONALE.md, "Reproducible module"); make
# repro rebuilds them again locally from a fresh build cache.
check-embed: $(EMBED) $(EMBED_FULL) $(EMBED_ADM)
	@for m in $(MODULES); do \
	  git ls-files --error-unmatch host/module/$$m.wasm.zst host/module/$$m.wasm.sha256 >/dev/null 2>&1 || { \
	    echo "check-embed: host/module/$$m.wasm.zst is not committed"; exit 1; }; \
	  git diff --quiet -- host/module/$$m.wasm.zst host/module/$$m.wasm.sha256 || { \
	    echo "check-embed: host/module/$$m.wasm.zst differs from the committed one: commit the module built from this tree"; exit 1; }; \
	  echo "check-embed: the committed $$m module is this tree's build ($$(cat host/module/$$m.wasm.sha256))"; \
	done

# Two builds of each module from scratch (fresh build cache, another
# directory) must give the recorded sha256; each wasm-opt runs in the
# background while the next module links, the admission module's (the
# longest) first.
REPRO_ORDER := celwasm-admission $(filter-out celwasm-admission,$(MODULES))
repro: $(WASM) $(WASM_FULL) $(WASM_ADM)
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	tar --exclude=node_modules -cf - wasm wire go.mod go.sum | tar -C $$tmp -xf -; \
	pids=; \
	for m in $(REPRO_ORDER); do \
	  case " $(WASM_ADMISSION_FLAVOURED) " in *" $$m "*) flavour=admission ;; *) flavour= ;; esac; \
	  case " $(WASM_PGO) " in *" $$m "*) pgo="$(PGO_FLAGS)" ;; *) pgo= ;; esac; \
	  (cd $$tmp && GO=$(GO) ./wasm/third_party/modfile.sh $$tmp/wasm.mod $$flavour && \
	   GOCACHE=$$tmp/.gocache GOOS=wasip1 GOARCH=wasm $(GO) build -modfile=$$tmp/wasm.mod $(WASM_GOFLAGS) $$pgo -o $$tmp/$$m.linked.wasm ./wasm/module/$$m); \
	  case " $(WASM_OPTIMIZED) " in \
	    *" $$m "*) $(WASM_OPT) $(WASM_OPT_FLAGS) $$tmp/$$m.linked.wasm -o $$tmp/$$m.wasm & pids="$$pids $$!" ;; \
	    *) mv $$tmp/$$m.linked.wasm $$tmp/$$m.wasm ;; esac; \
	done; \
	for p in $$pids; do wait $$p; done; \
	for m in $(MODULES); do \
	  second=$$(sha256sum $$tmp/$$m.wasm | cut -d' ' -f1); \
	  if [ "$$second" != "$$(cat $(BUILD)/$$m.wasm.sha256)" ]; then echo "repro: $$m MISMATCH $$second != $$(cat $(BUILD)/$$m.wasm.sha256)"; exit 1; fi; \
	  echo "repro: a second clean build of $$m has the same sha256 $$second"; \
	done

# The cel-spec and Kubernetes corpus through native, wazero and wasmtime-go,
# compared with the expectations and each other; the table in docs/conformance.md.
# conformance-go also regenerates the corpus into a temporary directory and
# fails when it differs from the checked-in one; its run-go runs the tests
# under conformance/ (adversarial, CRD and admission differentials) once.
conformance:
	$(MAKE) -C conformance run-go table
conformance-corpus:
	$(MAKE) -C conformance corpus
conformance-go:
	$(MAKE) -C conformance check-corpus run-go

# The proxy-wasm filter: a second module from the same engine, tested in the
# real Envoy 1.40.0 on 127.0.0.1 (docs/proxy-wasm.md).
# wasm-opt is installed by this make, once, before a make -j2 runs the filter's build beside the modules'.
proxywasm-module: | $(WASM_OPT)
	$(MAKE) -C wasm/proxywasm module
test-proxywasm:
	$(MAKE) -C wasm/proxywasm test

# The Extism plugin: a third module from the same handlers, run by three
# Extism host SDKs (Go, Python, Node; docs/extism.md).
extism:
	$(MAKE) -C wasm/extism plugin
test-extism:
	$(MAKE) -C wasm/extism test

test-js: $(EMBED) $(EMBED_FULL) $(EMBED_ADM)
	$(MAKE) -C sdk-js test

test-python: $(EMBED) $(EMBED_FULL) $(EMBED_ADM) $(CLI)
	$(MAKE) -C sdk-python test

# The batch stages and each reference case's floor (wasm/stagebench) as a WASI
# command, timed natively and in both Go runtimes by celwasm-bench and under
# node:wasi by the JS benchmark.
STAGEBENCH := $(BUILD)/stagebench.wasm
$(STAGEBENCH): $(WASM_SRCS) $(PGO_PROFILE) | tools
	@mkdir -p $(BUILD)
	GO=$(GO) ./wasm/third_party/modfile.sh $(WASM_MOD)
	GOOS=wasip1 GOARCH=wasm $(GO) build -modfile=$(WASM_MOD) -trimpath $(PGO_FLAGS) -o $@ ./wasm/stagebench/cmd

# Native cel-go as a Go program without celwasm runs it: upstream cel-go
# v0.29.2 in kube-apiserver 1.37's environment, where everything else here
# builds the patched fork; the baseline of the per-call targets
# (cmd/celwasm-bench/upstream, a module of its own). CELGO_FORK is the same
# program on the fork, so that the two differ in cel-go alone (RATIONALE.md,
# "Native cel-go is upstream v0.29.2").
$(CELGO_UPSTREAM): $(CELGO_BASE_SRCS)
	@mkdir -p $(dir $@)
	cd cmd/celwasm-bench/upstream && $(GO) vet . && $(GO) build -o $(abspath $@) .
$(CELGO_FORK): $(CELGO_BASE_SRCS) $(shell find wasm/third_party/cel-go -name '*.go' -not -name '*_test.go')
	@mkdir -p $(dir $@)
	cp cmd/celwasm-bench/upstream/go.mod $(BUILD)/celgo-fork.mod
	cp cmd/celwasm-bench/upstream/go.sum $(BUILD)/celgo-fork.sum
	$(GO) mod edit -modfile=$(BUILD)/celgo-fork.mod -replace=github.com/google/cel-go=$(abspath wasm/third_party/cel-go)
	cd cmd/celwasm-bench/upstream && $(GO) build -modfile=$(abspath $(BUILD))/celgo-fork.mod -o $(abspath $@) .

# Every benchmark writes build/bench/<section>.json; celwasm-benchdoc renders
# them with docs/bench-targets.json into docs/benchmarks.md. One section alone:
# its target (e.g. make bench-go), then make bench-doc; the other sections keep
# their last results. BENCH_QUICK=1: a short run of every benchmark.
BENCH_QUICK ?=
BENCH_SHORT := $(if $(BENCH_QUICK),-short)
export BENCH_QUICK

bench: wasm bench-go bench-crd bench-js bench-python bench-proxywasm bench-extism
	$(MAKE) bench-doc

bench-go: $(EMBED) $(EMBED_FULL) $(EMBED_ADM) $(CLI) $(STAGEBENCH) $(CELGO_UPSTREAM) $(CELGO_FORK) proxywasm-module
	CELWASM_CLI=$(CLI) $(GO) run ./cmd/celwasm-bench $(BENCH_SHORT) -upstream $(CELGO_UPSTREAM) -fork $(CELGO_FORK) -stages $(STAGEBENCH) -size $(BUILD)/celwasm-proxywasm.wasm -o $(BUILD)/bench
bench-crd: $(EMBED) $(EMBED_FULL) $(EMBED_ADM)
	$(GO) run ./cmd/celwasm-crd-bench $(BENCH_SHORT) -o $(BUILD)/bench
bench-js: $(STAGEBENCH) $(CELGO_UPSTREAM) $(CELGO_FORK)
	CELGO_UPSTREAM=$(abspath $(CELGO_UPSTREAM)) CELGO_FORK=$(abspath $(CELGO_FORK)) $(MAKE) -C sdk-js bench
bench-python: $(EMBED) $(EMBED_FULL) $(EMBED_ADM) $(CLI) $(STAGEBENCH)
	$(MAKE) -C sdk-python bench
bench-proxywasm:
	$(MAKE) -C wasm/proxywasm bench
bench-extism:
	$(MAKE) -C wasm/extism bench

# The packages a user installs, from one version (VERSION): dist/celwasm-<version>.tgz (npm pack),
# dist/celwasm-<version>-py3-none-any.whl and dist/celwasm-<version>.tar.gz (sdist).
VERSION_NUMBER := $(shell cat VERSION)
dist: check-version wasm $(EMBED) $(EMBED_FULL) $(EMBED_ADM)
	@mkdir -p dist
	rm -f dist/celwasm-$(VERSION_NUMBER)*
	$(MAKE) -C sdk-js build
	cd sdk-js && npm pack --silent --pack-destination ../dist >/dev/null
	$(MAKE) -C sdk-python module venv
	cd sdk-python && .venv/bin/python -m build --no-isolation --outdir ../dist . >/dev/null
	@ls -l dist/celwasm-$(VERSION_NUMBER)*

# Every example of README.md and the SDK READMEs (shell, JavaScript also as TypeScript with tsc --strict
# and in Chromium, Python) against the packages `make dist` built, installed outside the tree; the
# outputs the READMEs show are compared. The Go example runs in internal/doctest (test-go).
test-dist: dist $(CLI)
	python3 scripts/doc_examples.py dist $(CLI)

# Go native fuzzing of every export's request handler (wasm/abi/fuzz_test.go), each target for
# FUZZTIME executions. `make test` runs the targets over their seed corpus (go test); a crasher found
# here lands in wasm/abi/testdata/fuzz/ and from then on runs in make test as a regression case, over
# upstream Kubernetes code (go test uses go.mod): a crasher that only a patched copy produces belongs
# in that copy's patch test instead.
# Budgets are counts (Nx), not durations: with a duration, Go 1.26's coordinator can report its own
# deadline as a failure ("context deadline exceeded", golang/go#75804, fixed in Go 1.27), and one
# admission input minimised for the default 60 s outlived a 30 s budget in CI. FUZZMINIMIZE bounds
# minimisation by count too. The targets build with the admission module's go.mod, so they fuzz the
# patched Kubernetes copies the modules link (wasm/third_party/apiserver/PATCHES.md).
FUZZ_TARGETS := FuzzCompile FuzzEval FuzzEvalBatch FuzzFilter FuzzWhen FuzzValidate FuzzCost FuzzAdmit
FUZZTIME ?= 100000x
FUZZMINIMIZE ?= 500x
fuzz:
	GO=$(GO) ./wasm/third_party/modfile.sh $(WASM_MOD_ADMISSION) admission
	for t in $(FUZZ_TARGETS); do $(GO) test -modfile=$(WASM_MOD_ADMISSION) -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) ./wasm/abi || exit 1; done

# make test's share: 20,000 executions per target, 10–40 s each here (about 8 minutes with the
# instrumented builds).
fuzz-smoke:
	$(MAKE) fuzz FUZZTIME=20000x

# A million evaluations per host (Go on both runtimes, Node, Python): memory stays flat
# (scripts/soak.py; CELWASM_SOAK_EVALS to change the count) → build/bench/soak.json.
soak: $(EMBED)
	$(MAKE) -C sdk-js build
	$(MAKE) -C sdk-python module venv
	python3 scripts/soak.py

check-version:
	python3 scripts/version.py check

# CPU and allocation profiles of the reference cases: natively (pprof) and in
# the module under Node (node --cpu-prof of a build keeping its name section).
profile:
	GO=$(GO) PGO_FLAGS="$(PGO_FLAGS)" ./scripts/profile.sh

# The CPU profile the expression module is built with (PGO_PROFILE), from the
# handler's benchmarks natively; commit it, then rebuild and commit the module.
pgo:
	GO=$(GO) PGO_PROFILE=$(PGO_PROFILE) ./scripts/pgo.sh

# CPU and allocation profiles of CRD validation (the CRD benchmark's workload,
# internal/crdbench) natively with the modules' patched copies (-modfile).
profile-crd:
	GO=$(GO) ./wasm/third_party/modfile.sh $(WASM_MOD)
	mkdir -p $(BUILD)/profiles
	$(GO) test -modfile=$(WASM_MOD) -run '^$$' -bench ValidateKEP -benchtime 2s -benchmem -cpuprofile $(BUILD)/profiles/crd.cpu -o $(BUILD)/profiles/crd.test ./wasm/crd
	$(GO) test -modfile=$(WASM_MOD) -run '^$$' -bench ValidateKEP -benchtime 200x -benchmem -memprofile $(BUILD)/profiles/crd.mem -memprofilerate 1 -o $(BUILD)/profiles/crd.test ./wasm/crd
	@echo "profile-crd: go tool pprof $(BUILD)/profiles/crd.test $(BUILD)/profiles/crd.cpu (or crd.mem, -sample_index=alloc_space)"

# CPU profiles of the proxy-wasm filter's per-request work: natively (pprof of
# BenchmarkDecide) and the module under V8 (node --cpu-prof of a build keeping
# its name section, driven by scripts/profile-proxywasm.mjs), to
# build/profiles/proxywasm-*.
profile-proxywasm:
	GO=$(GO) ./wasm/third_party/modfile.sh $(BUILD)/wasm-proxywasm.mod
	mkdir -p $(BUILD)/profiles
	$(GO) test -modfile=$(BUILD)/wasm-proxywasm.mod -run '^$$' -bench Decide -benchtime 2s -benchmem -cpuprofile $(BUILD)/profiles/proxywasm-native.cpu -o $(BUILD)/profiles/proxywasm.test ./wasm/proxywasm/filter
	$(GO) tool pprof -top -cum -nodecount 60 $(BUILD)/profiles/proxywasm.test $(BUILD)/profiles/proxywasm-native.cpu > $(BUILD)/profiles/proxywasm-native.txt 2>/dev/null
	GOOS=wasip1 GOARCH=wasm $(GO) build -modfile=$(BUILD)/wasm-proxywasm.mod -buildmode=c-shared -trimpath -o $(BUILD)/profiles/celwasm-proxywasm-names.wasm ./wasm/proxywasm
	for c in true policy; do rm -rf $(BUILD)/profiles/proxywasm-node-$$c; \
	  node --no-warnings --cpu-prof --cpu-prof-dir=$(BUILD)/profiles/proxywasm-node-$$c --cpu-prof-interval 50 \
	    scripts/profile-proxywasm.mjs $(BUILD)/profiles/celwasm-proxywasm-names.wasm host/envoy/cmd/envoy-bench/policies.json $$c || exit 1; \
	  node scripts/cpuprofile-top.mjs $(BUILD)/profiles/proxywasm-node-$$c/*.cpuprofile 80 > $(BUILD)/profiles/proxywasm-node-$$c.txt; done
	@echo "profile-proxywasm: $(BUILD)/profiles/proxywasm-native.txt, $(BUILD)/profiles/proxywasm-node-{true,policy}.txt"

bench-doc:
	$(GO) run ./cmd/celwasm-benchdoc -in $(BUILD)/bench -targets docs/bench-targets.json -o docs/benchmarks.md

clean:
	rm -rf $(BUILD) wasm/binaryen/node_modules
