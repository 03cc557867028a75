#!/usr/bin/env bash
# llvm-mca's model of the two arm64 masking loops, as the Go toolchain
# compiled them at 08324d8 (llvm-objdump of `GOARCH=arm64 go test -c
# ./optimized/websocket`: xorKeyWords' 32-octet loop, nops included, and
# xorBlocksNEON's 64-octet loop; neon-ldpq-loop.s is a form with LDP/STP
# of Q registers, not used). A model, not a measurement.
cd "$(dirname "$0")"
for cpu in neoverse-n1 neoverse-v1 neoverse-n2; do
  for f in generic-loop neon-loop neon-ldpq-loop; do
    c=$(llvm-mca -mtriple=aarch64 -mcpu=$cpu -iterations=1000 $f.s 2>&1 | awk '/^Total Cycles/{print $3}')
    echo "$cpu $f: $(echo "scale=2; $c/1000" | bc) cycles a turn"
  done
done
