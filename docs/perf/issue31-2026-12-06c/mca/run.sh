#!/usr/bin/env bash
# llvm-mca's model of arm64 loops as the Go toolchain compiled them
# (llvm-objdump of `GOARCH=arm64 go test -c`, nops included):
#   generic-loop, neon-loop, neon-ldpq-loop: masking at 08324d8
#     (xorKeyWords' 32-octet loop; xorBlocksNEON's 64-octet loop; a form
#     with LDP/STP of Q registers, not used);
#   sum-blocks4-loop, sum-adc-loop: the Internet checksum at 7433939
#     (sumBlocks' four 32-bit accumulators; Sum's 64-bit add-with-carry
#     chain for 64-575 octets), 64 octets a turn each.
# It needs LLVM 19 (apt-get install llvm-19): LLVM 14 has no scheduling
# model of its own for the Neoverse cores and uses Cortex-A57's for them.
# A model, not a measurement.
cd "$(dirname "$0")"
mca=/usr/lib/llvm-19/bin/llvm-mca
if [ ! -x "$mca" ]; then
  echo "llvm-mca of LLVM 19 not installed: skipped" >&2
  exit 0
fi
for cpu in neoverse-n1 neoverse-v1 neoverse-n2 neoverse-v2; do
  for f in generic-loop neon-loop neon-ldpq-loop sum-blocks4-loop sum-adc-loop; do
    c=$("$mca" -mtriple=aarch64 -mcpu=$cpu -iterations=1000 $f.s 2>&1 | awk '/^Total Cycles/{print $3}')
    echo "$cpu $f: $(echo "scale=2; $c/1000" | bc) cycles a turn"
  done
done
