SHELL := /bin/bash
# sccg — build, test, demo, benchmarks and conformance checks.
# Needs only Go (with cgo: gcc) and python3.

GO      ?= go
BIN     ?= bin/sccg
SHARED  ?= ../shared
CONFORMANCE ?= $(SHARED)/conformance/sccgbench-validation-dev.json
export CGO_ENABLED = 1

.PHONY: all build test test-short race vet fmt-check demo bench conformance clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/sccg

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# The whole suite, with the race detector, as CI runs it.
test: fmt-check vet
	$(GO) test -race -count=1 -timeout 15m ./...

# Quick loop while editing: no race detector, slow end-to-end tests skipped.
test-short:
	$(GO) test -short ./...

# The main job on the embedded snapshot: crawl, mine, extract, align, … evaluate, offline.
demo: build
	$(BIN) demo --out demo-out

# Speed and memory figures. With the public validation samples (../shared/conformance)
# the evaluator's run on their gold code: completions/s and CPU per completion with
# full isolation (BenchmarkEvalGold), where a sandboxed run's CPU goes
# (BenchmarkRunSplit), a distinct completion's static scores (BenchmarkStaticScores).
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
