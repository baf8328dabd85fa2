SHELL := /bin/bash
# sccg — build, test, demo, benchmarks and conformance checks.
# Needs only Go (with cgo: gcc) and python3.

GO      ?= go
BIN     ?= bin/sccg
SHARED  ?= ../shared
CONFORMANCE ?= $(SHARED)/conformance/sccgbench-validation-dev.json
export CGO_ENABLED = 1

.PHONY: all build build-beam test test-short race vet fmt-check demo bench conformance clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/sccg

# The Apache Beam corpus miner that `sccg mine --corpus` runs, next to sccg. Its own
# binary: Beam more than doubles sccg's size and cold build time.
build-beam: build
	$(GO) build -o $(dir $(BIN))sccg-beam ./cmd/sccg-beam

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Packages that link Apache Beam. Their tests run without the race detector: under
# it, Beam's gRPC runner stack adds minutes of cold build and triples the tests' time.
BEAM_PKGS = ./mine/corpus/beamjob ./cmd/sccg-beam

# The whole suite, with the race detector (but for Beam's packages), as CI runs it.
# atexit_sleep_ms=0: a race-built program otherwise sleeps a second as it exits (to
# catch races of goroutines still running then), a second per test binary; races
# during a test still fail it. Any GORACE of the caller's comes after and wins.
test: fmt-check vet
	GORACE="atexit_sleep_ms=0 $$GORACE" $(GO) test -race -count=1 -timeout 15m $$($(GO) list ./... | grep -v -e /mine/corpus/beamjob -e /cmd/sccg-beam)
	$(GO) test -count=1 -timeout 5m $(BEAM_PKGS)

# Quick loop while editing: no race detector, slow end-to-end tests skipped.
test-short:
	$(GO) test -short ./...

# The main job on the embedded snapshot: crawl, mine, extract, align, … evaluate, offline.
demo: build
	$(BIN) demo --out demo-out

# Speed and memory figures. With the public validation samples (../shared/conformance)
# the evaluator's run on their gold code: completions/s and CPU per completion with
# full isolation (BenchmarkEvalGold), where a sandboxed run's CPU goes
# (BenchmarkRunSplit), a distinct completion's static scores (BenchmarkStaticScores),
# batched runs against the same harness in-process without isolation, the tame share
# and the batches verification ended (BenchmarkBatched), the fork floor (BenchmarkForkFloor).
bench:
	@if [ -f "$(CONFORMANCE)" ]; then export SCCG_CONFORMANCE=$(abspath $(CONFORMANCE)); fi; \
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 3x ./...

# Checks against the public validation samples in ../shared/conformance (skipped when absent).
conformance: build
	@set -o pipefail; if [ ! -f "$(CONFORMANCE)" ]; then echo "conformance: $(CONFORMANCE) not found, skipping"; exit 0; fi; \
	SCCG_CONFORMANCE=$(abspath $(CONFORMANCE)) $(GO) test -count=1 -run Conformance -v ./... | grep -E '^(=== RUN|--- |    |ok|FAIL|PASS)' ; \
	exit $${PIPESTATUS[0]}

clean:
	rm -rf bin demo-out
