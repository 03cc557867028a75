#!/usr/bin/env bash
# Issue 31, the AVX2 kernels' tail of 1-31 octets after the last whole
# block: BEFORE against the working tree, with ../ba.sh.
set -eu
export BEFORE=${BEFORE:-cccf04c} OUT=${OUT:-/tmp/ba-d}
export JOBS='utf8:^BenchmarkSweepUTF8$:32:160:10000x
unmask:^BenchmarkSweepUnmask$:32:160:10000x'
exec "$(dirname "$0")/../ba.sh"
