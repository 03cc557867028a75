#!/usr/bin/env bash
# Issue 31, before and after this session's changes (checksum's medium
# path; the AVX2 Unmask kernel's ASCII runs), with ../ba.sh: the sides
# in the same order every round, as the committed ba-*.txt were made.
set -eu
export BEFORE=${BEFORE:-7346f74} OUT=${OUT:-/tmp/ba} ALTERNATE=0
export JOBS='checksum:^BenchmarkSweepChecksum$:1:257:10000x
checksum-large:^BenchmarkSweepChecksum$:511:1048577:100x
unmask:^BenchmarkSweepUnmask$:1:257:10000x
unmask-large:^BenchmarkSweepUnmask$:511:1048577:100x
unmaskcopy:^BenchmarkSweepUnmaskCopy$:1:257:10000x
unmaskcopy-large:^BenchmarkSweepUnmaskCopy$:511:1048577:100x'
exec "$(dirname "$0")/../ba.sh"
