#!/usr/bin/env bash
# Issue 31: every implementation in one binary, ROUNDS interleaved rounds of
# one sample each, sizes SWEEPMIN..SWEEPMAX.
set -eu
REPO=${REPO:?}
ROUNDS=${ROUNDS:-10}
SWEEPS=${SWEEPS:-"Mask UTF8 Unmask UnmaskCopy Varint AppendVarint Checksum"}
OUT=${OUT:-/tmp/full}; rm -rf $OUT; mkdir -p $OUT
(cd $REPO/bench && go test -c -ldflags=-funcalign=64 -o $OUT/bench.test .)
for i in $(seq $ROUNDS); do
  for p in $SWEEPS; do
    (cd $REPO/bench && $OUT/bench.test -test.run '^$' -test.bench "^BenchmarkSweep$p\$" -test.benchtime ${BENCHTIME:-10000x} -test.count 1 -test.timeout 60m -sweep.min ${SWEEPMIN:-1} -sweep.max ${SWEEPMAX:-1048577}) >> $OUT/$(echo $p | tr A-Z a-z).txt
  done
  echo "round $i done $(date +%T)" >> $OUT/progress
done
echo finished >> $OUT/progress
