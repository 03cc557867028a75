#!/usr/bin/env bash
# Before and after, for issue 31's measurements: the test binaries of
# BEFORE and of the working tree, both linked with every function at a
# 64-byte boundary, in ROUNDS interleaved rounds of one sample each. Each
# binary's own equivcheck column is renamed to its side; the peers'
# columns then hold both binaries' samples.
#
# JOBS lists the runs of a round, one per line:
#   file:benchmark regexp:sweep.min:sweep.max:benchtime
# and each appends to OUT/file.txt. TAGS, if set, is passed to go test
# -tags (purego measures the generic build). With ALTERNATE=1 (the default) the
# sides take turns at going first, round by round: the A/A control
# (issue31-2026-12-05b/aa.sh) found a drift within a round that favours
# whichever side always runs first.
set -eu
REPO=${REPO:?}
BEFORE=${BEFORE:?}
JOBS=${JOBS:?}
ROUNDS=${ROUNDS:-10}
ALTERNATE=${ALTERNATE:-1}
OUT=${OUT:-/tmp/ba}
rm -rf "$OUT"; mkdir -p "$OUT"
git -C "$REPO" worktree add -f --detach "$OUT/before" "$BEFORE" >/dev/null
(cd "$OUT/before/bench" && go test -c ${TAGS:+-tags "$TAGS"} -ldflags=-funcalign=64 -o "$OUT/before.test" .)
git -C "$REPO" worktree remove --force "$OUT/before"
(cd "$REPO/bench" && go test -c ${TAGS:+-tags "$TAGS"} -ldflags=-funcalign=64 -o "$OUT/after.test" .)
run() { # side, file, bench regexp, min, max, benchtime
  (cd "$REPO/bench" && "$OUT/$1.test" -test.run '^$' -test.bench "$3" -test.benchtime "$6" \
    -test.count 1 -test.timeout 60m -sweep.min "$4" -sweep.max "$5") |
    sed "s/impl=equivcheck/impl=$1/" >> "$OUT/$2.txt"
}
for i in $(seq "$ROUNDS"); do
  order="before after"
  [ "$ALTERNATE" = 1 ] && [ $((i % 2)) = 0 ] && order="after before"
  for side in $order; do
    while IFS=: read -r file re min max bt; do
      [ -n "$file" ] && run "$side" "$file" "$re" "$min" "$max" "$bt"
    done <<< "$JOBS"
  done
  echo "round $i done $(date +%T)" >> "$OUT/progress"
done
echo finished >> "$OUT/progress"
