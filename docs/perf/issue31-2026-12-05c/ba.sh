#!/usr/bin/env bash
# Issue 31, Valid's short texts: BEFORE against the working tree with a
# variant of valid() (ba-valid-*.txt name each), with ../ba.sh.
set -eu
export BEFORE=${BEFORE:-8daea64} OUT=${OUT:-/tmp/ba-c}
export JOBS='utf8:^BenchmarkSweepUTF8$:1:64:10000x'
exec "$(dirname "$0")/../ba.sh"
