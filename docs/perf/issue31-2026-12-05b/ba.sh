#!/usr/bin/env bash
# Issue 31, before and after this session's changes (checksum's medium
# path; the AVX2 Unmask kernel's ASCII runs): the test binaries of BEFORE
# and of the working tree, both linked with every function at a 64-byte
# boundary, in ROUNDS interleaved rounds of one sample each. Each
# binary's own equivcheck column is renamed to its side; the peers'
# columns then hold both binaries' samples.
set -eu
REPO=${REPO:?}
BEFORE=${BEFORE:-7346f74}
ROUNDS=${ROUNDS:-10}
OUT=${OUT:-/tmp/ba}
rm -rf "$OUT"; mkdir -p "$OUT"
git -C "$REPO" worktree add -f --detach "$OUT/before" "$BEFORE" >/dev/null
(cd "$OUT/before/bench" && go test -c -ldflags=-funcalign=64 -o "$OUT/before.test" .)
git -C "$REPO" worktree remove --force "$OUT/before"
(cd "$REPO/bench" && go test -c -ldflags=-funcalign=64 -o "$OUT/after.test" .)
run() { # side, file, bench regexp, min, max, benchtime
  (cd "$REPO/bench" && "$OUT/$1.test" -test.run '^$' -test.bench "$3" -test.benchtime "$6" \
    -test.count 1 -test.timeout 60m -sweep.min "$4" -sweep.max "$5") |
    sed "s/impl=equivcheck/impl=$1/" >> "$OUT/$2.txt"
}
for i in $(seq "$ROUNDS"); do
  for side in before after; do
    run $side checksum '^BenchmarkSweepChecksum$' 1 257 10000x
    run $side checksum-large '^BenchmarkSweepChecksum$' 511 1048577 100x
    run $side unmask '^BenchmarkSweepUnmask$' 1 257 10000x
    run $side unmask-large '^BenchmarkSweepUnmask$' 511 1048577 100x
    run $side unmaskcopy '^BenchmarkSweepUnmaskCopy$' 1 257 10000x
    run $side unmaskcopy-large '^BenchmarkSweepUnmaskCopy$' 511 1048577 100x
  done
  echo "round $i done $(date +%T)" >> "$OUT/progress"
done
echo finished >> "$OUT/progress"
