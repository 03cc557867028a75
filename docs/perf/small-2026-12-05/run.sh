#!/usr/bin/env bash
# Issue 31's small-size region, before (the commit before the perf merge,
# with HEAD's bench module) and after (HEAD), interleaved round by round
# so that the host's load falls on both alike.
set -eu
# REPO: this checkout; BEFORE: a worktree of the commit before the perf
# merge (160917a) with this checkout's bench/ copied in.
REPO=${REPO:?} BEFORE=${BEFORE:?}
ROUNDS=${ROUNDS:-10}
SMALLS=${SMALLS:-"Mask UTF8 Unmask UnmaskCopy Varint AppendVarint Checksum"}
OUT=/tmp/small; rm -rf $OUT; mkdir -p $OUT
(cd $REPO/bench && go test -c -ldflags=-funcalign=64 -o $OUT/after.test .)
(cd $BEFORE/bench && go test -c -ldflags=-funcalign=64 -o $OUT/before.test .)
for i in $(seq $ROUNDS); do
  for p in $SMALLS; do
    for v in after before; do
      (cd $REPO/bench && $OUT/$v.test -test.run '^$' -test.bench "^BenchmarkSweep$p\$" -test.benchtime 10000x -test.count 1 -test.timeout 60m -sweep.max ${SMALLMAX:-257}) >> $OUT/$v-$(echo $p | tr A-Z a-z).txt
    done
  done
  echo "round $i done $(date +%T)" >> $OUT/progress
done
echo finished >> $OUT/progress
