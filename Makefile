# equivcheck: common tasks. `make ci` runs what CI runs (.ci/run).
GO        ?= go
FUZZTIME  ?= 30s
BENCHTIME ?= 1s
COUNT     ?= 6
LEVEL     ?= quick

.PHONY: test fuzz libfuzzer bench bench-peers bench-sweep bench-small gate lint ci mutation mechanisms peers prove

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
# SWEEPMIN=258 measures only the sizes above the small region, which
# bench-small measures in more rounds (the plot takes its points instead).
# PERFDIR (relative to the repository) is where both targets write: a run
# on another host belongs in a directory of its own (docs/perf/zen1 is one).
PERFDIR   ?= docs/perf
SWEEPTIME ?= 20ms
SWEEPLINK ?= -ldflags=-funcalign=64
SWEEPMIN  ?= 0
SWEEPS    ?= Checksum Mask MaskCopy Varint AppendVarint Header UTF8 Unmask UnmaskCopy
BENCHSTAT ?= $(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
bench-sweep:
	mkdir -p $(PERFDIR)
	for p in $(SWEEPS); do \
		f=$(PERFDIR)/sweep-$$(echo $$p | tr A-Z a-z); \
		rm -f $$f.txt; \
		for i in $$(seq $(COUNT)); do \
			(cd bench && $(GO) test $(SWEEPLINK) -run '^$$' -bench "^BenchmarkSweep$$p\$$" -benchtime $(SWEEPTIME) -count 1 -timeout 60m . -args -sweep.min=$(SWEEPMIN)) >> $$f.txt || exit 1; \
		done; \
		$(BENCHSTAT) -col /impl $$f.txt > $$f-benchstat.txt || exit 1; \
		$(BENCHSTAT) -format csv -col /impl $$f.txt > $$f.csv || exit 1; \
	done
	cd bench && $(GO) run ./cmd/plot -out ../$(PERFDIR) ../$(PERFDIR)/sweep-*.csv $$(ls ../$(PERFDIR)/small-*.csv 2>/dev/null) | tee ../$(PERFDIR)/sweep-summary.txt
	# The floors (bench/floor_test.go), COUNT runs of one each, interleaved.
	rm -f $(PERFDIR)/floor.txt
	for i in $$(seq $(COUNT)); do \
		(cd bench && $(GO) test $(SWEEPLINK) -run '^$$' -bench '^BenchmarkFloor' -benchtime 50ms -count 1 .) >> $(PERFDIR)/floor.txt || exit 1; \
	done
	$(BENCHSTAT) -col /impl $(PERFDIR)/floor.txt > $(PERFDIR)/floor-benchstat.txt

# The small-size region of the sweeps (issue 31): every size up to
# SMALLMAX octets of each pair in SMALLS, SMALLCOUNT rounds of one sample
# each, every pair once per round, so that a burst of load from the other
# tenants lands on one sample of each point and the rounds interleave.
# A sample is SMALLTIME, a fixed 10000 iterations (3 µs to 1 ms here):
# with the host's load average at 10-18, samples of 5 ms were nearly all
# preempted, 2-4x too slow and ±50-100% wide, while most samples this
# short run between two preemptions. About 1.7 minutes a round on a 2 GHz
# Zen 1 core. One test binary, built once (linked as bench-sweep's), runs
# every round. Raw output and benchstat table (gzipped: 35 MB of text at
# 20 rounds) and CSV per pair in $(PERFDIR)/small-<pair>.*; the plots and
# the summary then take these points in place of the whole sweep's
# (bench/cmd/plot).
SMALLCOUNT ?= 20
SMALLTIME  ?= 10000x
SMALLMAX   ?= 257
SMALLS     ?= Checksum Mask Varint AppendVarint UTF8 Unmask UnmaskCopy
bench-small:
	mkdir -p $(PERFDIR)
	cd bench && $(GO) test -c $(SWEEPLINK) -o ../bench-small.test .
	for p in $(SMALLS); do rm -f $(PERFDIR)/small-$$(echo $$p | tr A-Z a-z).txt $(PERFDIR)/small-$$(echo $$p | tr A-Z a-z)*.txt.gz; done
	for i in $$(seq $(SMALLCOUNT)); do \
		for p in $(SMALLS); do \
			(cd bench && ../bench-small.test -test.run '^$$' -test.bench "^BenchmarkSweep$$p\$$" -test.benchtime $(SMALLTIME) -test.count 1 -test.timeout 60m -sweep.max $(SMALLMAX)) >> $(PERFDIR)/small-$$(echo $$p | tr A-Z a-z).txt || exit 1; \
		done; \
	done
	rm -f bench-small.test
	for p in $(SMALLS); do \
		f=$(PERFDIR)/small-$$(echo $$p | tr A-Z a-z); \
		$(BENCHSTAT) -col /impl $$f.txt > $$f-benchstat.txt || exit 1; \
		$(BENCHSTAT) -format csv -col /impl $$f.txt > $$f.csv || exit 1; \
		gzip -9f $$f.txt $$f-benchstat.txt || exit 1; \
	done
	cd bench && $(GO) run ./cmd/plot -out ../$(PERFDIR) $$(ls ../$(PERFDIR)/sweep-*.csv 2>/dev/null) ../$(PERFDIR)/small-*.csv | tee ../$(PERFDIR)/sweep-summary.txt

# Other modules' implementations through the suites (the nested module
# peers/, docs/peers.md); LEVEL=standard or deep for the larger domains.
peers:
	cd peers && EQUIV_LEVEL=$(LEVEL) $(GO) test -count=1 -timeout 60m ./...

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

# Every contract mechanism off in turn, every bug of its list escaping the
# whole quick suite without it (internal/battery TestMechanisms; .ci/run
# checks the first bug of each list). About 5½ minutes on 2 cores.
mechanisms:
	$(GO) test -count=1 -timeout 40m -run '^TestMechanisms$$' -v ./internal/battery

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	cd bench && $(GO) vet ./...
	cd peers && $(GO) vet ./...
	cd prove && $(GO) vet ./...

# The proofs of the generic kernels (the nested module prove/; needs z3 or
# cvc5): docs/equivalence.md#proofs-the-prove-method.
prove:
	cd prove && $(GO) run ./cmd/equivprove -level $(LEVEL) -fuzzdir ../fuzz/testdata/fuzz

ci:
	bash .ci/run
