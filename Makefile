# equivcheck: common tasks. `make ci` runs what CI runs (.ci/run).
GO        ?= go
FUZZTIME  ?= 30s
BENCHTIME ?= 1s
COUNT     ?= 6
LEVEL     ?= quick

.PHONY: test fuzz libfuzzer bench bench-peers bench-sweep gate lint ci mutation prove

test:
	$(GO) test ./...

# Each fuzz target in turn, for FUZZTIME each (a duration, or a count such as
# 100000x; with Go 1.26 a duration can end in a spurious "context deadline
# exceeded" failure with no failing input written: golang/go#75804).
fuzz:
	for t in $$($(GO) test ./fuzz -list '^Fuzz' | grep '^Fuzz'); do \
		$(GO) test ./fuzz -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) || exit 1; \
	done

# The fuzz targets built for libFuzzer as OSS-Fuzz builds them (needs clang),
# LIBFUZZER_RUNS executions each (default 100000): docs/fuzzing.md.
libfuzzer:
	bash .ci/libfuzzer.sh

# Per-variant benchmarks of the optimized packages (compare with benchstat -col /impl).
bench:
	$(GO) test ./optimized/... -run '^$$' -bench . -benchtime $(BENCHTIME) -count $(COUNT) | tee bench-optimized.txt

# Against the Go peers (gvisor, gobwas/ws, quic-go), in the nested module
# bench/; the sweeps are bench-sweep's.
bench-peers:
	cd bench && $(GO) test -run '^$$' -bench . -skip '^BenchmarkSweep' -benchtime $(BENCHTIME) -count $(COUNT) | tee ../bench-peers.txt

# Every pair against its peers over a dense size grid (bench/sweep_test.go),
# about 10 minutes: raw output, benchstat table and CSV per pair in
# docs/perf/, then the ratio curves (SVG) and each target's worst point.
# COUNT runs of one sample each, so that a burst of load from outside
# lands on one sample of each point rather than on all of one side's.
# SWEEPS=Varint re-runs one pair (the plot and summary cover them all).
# SWEEPLINK starts every function, ours and the peers', at a 64-byte
# boundary: by default the linker aligns them to 32 bytes, so each one's
# offset within a 64-byte line depends on the size of everything linked
# before it, and that offset alone moved points by 0.3 ns
# (docs/performance.md). SWEEPLINK= measures the default link.
SWEEPTIME ?= 20ms
SWEEPLINK ?= -ldflags=-funcalign=64
SWEEPS    ?= Checksum Mask MaskCopy Varint Header UTF8 Unmask
BENCHSTAT ?= $(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
bench-sweep:
	mkdir -p docs/perf
	for p in $(SWEEPS); do \
		f=docs/perf/sweep-$$(echo $$p | tr A-Z a-z); \
		rm -f $$f.txt; \
		for i in $$(seq $(COUNT)); do \
			(cd bench && $(GO) test $(SWEEPLINK) -run '^$$' -bench "^BenchmarkSweep$$p\$$" -benchtime $(SWEEPTIME) -count 1 -timeout 60m .) >> $$f.txt || exit 1; \
		done; \
		$(BENCHSTAT) -col /impl $$f.txt > $$f-benchstat.txt || exit 1; \
		$(BENCHSTAT) -format csv -col /impl $$f.txt > $$f.csv || exit 1; \
	done
	cd bench && $(GO) run ./cmd/plot -out ../docs/perf ../docs/perf/sweep-*.csv | tee ../docs/perf/sweep-summary.txt
	# The floors (bench/floor_test.go), COUNT runs of one each, interleaved.
	rm -f docs/perf/floor.txt
	for i in $$(seq $(COUNT)); do \
		(cd bench && $(GO) test $(SWEEPLINK) -run '^$$' -bench '^BenchmarkFloor' -benchtime 50ms -count 1 .) >> docs/perf/floor.txt || exit 1; \
	done
	$(BENCHSTAT) -col /impl docs/perf/floor.txt > docs/perf/floor-benchstat.txt

# The release gate; LEVEL=standard or deep for the larger domains.
gate:
	$(GO) run ./cmd/equivcheck -level $(LEVEL)

# gremlins (pinned, from the module proxy) over the optimized and reference
# packages, one at a time on a snapshot of the working tree; then the figures
# corrected for uncompilable and duplicate mutants, and every survivor checked
# against docs/mutation.md. Results in out/mutation. Settings and timing:
# docs/mutation.md.
mutation:
	bash .ci/mutation.sh

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	cd bench && $(GO) vet ./...
	cd prove && $(GO) vet ./...

# The proofs of the generic kernels (the nested module prove/; needs z3 or
# cvc5): docs/equivalence.md#proofs-the-prove-method.
prove:
	cd prove && $(GO) run ./cmd/equivprove -level $(LEVEL) -fuzzdir ../fuzz/testdata/fuzz

ci:
	bash .ci/run
