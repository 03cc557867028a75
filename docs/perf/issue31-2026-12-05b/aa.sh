#!/usr/bin/env bash
# Issue 31, a control for the cell counts: the same test binary run as two
# sides, "a" and "b", in ROUNDS interleaved rounds of one sample each over
# the small region of SWEEPS, equivcheck's rows only. Any cell benchstat
# calls significant (p < 0.05) by more than 3% either way is chance: how
# many cells a count of "a peer faster" holds where the two sides are
# level.
set -eu
REPO=${REPO:?}
ROUNDS=${ROUNDS:-10}
SWEEPS=${SWEEPS:-"UTF8 Unmask UnmaskCopy"}
OUT=${OUT:-/tmp/aa}
rm -rf "$OUT"; mkdir -p "$OUT"
(cd "$REPO/bench" && go test -c -ldflags=-funcalign=64 -o "$OUT/bench.test" .)
for i in $(seq "$ROUNDS"); do
  # The sides take turns at going first: one that always ran second was
  # slower in most cells that chance marked (a drift within a round).
  order="a b"; [ $((i % 2)) = 0 ] && order="b a"
  for p in $SWEEPS; do
    for side in $order; do
      (cd "$REPO/bench" && "$OUT/bench.test" -test.run '^$' -test.bench "^BenchmarkSweep$p\$" \
        -test.benchtime 10000x -test.count 1 -test.timeout 60m -sweep.max 257) |
        grep -E '^(goos|goarch|pkg|cpu):|impl=equivcheck' | sed "s/impl=equivcheck/impl=$side/" \
        >> "$OUT/$(echo "$p" | tr A-Z a-z).txt"
    done
  done
  echo "round $i done $(date +%T)" >> "$OUT/progress"
done
echo finished >> "$OUT/progress"
