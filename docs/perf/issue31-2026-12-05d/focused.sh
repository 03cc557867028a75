#!/usr/bin/env bash
# The focused runs of "Valid's tail" in docs/performance.md: BEF and AFT
# are test binaries of bench/ (go test -c -ldflags=-funcalign=64) built
# at cccf04c and after the change; 20 rounds, the two sides taking turns
# at going first. focused-tails.txt and focused-ascii.txt are
# benchstat -col '/impl@(bef aft3)' of the two outputs.
set -eu
BEF=${BEF:?} AFT=${AFT:?}
round() { # regexp, output
  for i in $(seq 20); do
    if [ $((i % 2)) = 0 ]; then o="aft3 bef"; else o="bef aft3"; fi
    for s in $o; do
      bin=$BEF; [ "$s" = aft3 ] && bin=$AFT
      "$bin" -test.run '^$' -test.bench "$1" -test.benchtime 50000x -test.count 1 \
        -sweep.min 32 -sweep.max 150 | sed "s/impl=equivcheck/impl=$s/"
    done
  done > "$2"
}
cd "$(dirname "$0")/../../../bench"
round 'SweepUTF8/class=(latin|cjk|emoji)/align=0/size=(34|36|39|40|66|68|98|99|100|130)/impl=equivcheck' /tmp/focused-tails.raw
round 'SweepUTF8/class=ascii/align=(0|1)/size=(40|50|64|65|66|96|97|128|130)/impl=equivcheck' /tmp/focused-ascii.raw
# ascii-one-block.txt: the same rounds (16, benchtime 50000x, sizes
# 32-200) of 'SweepUTF8/class=(ascii|mixed)/align=(0|1)/size=(32|40|63|64|65|70|80|96|100|128|140|160|192|193|200)/impl=(equivcheck|segmentio)'
# with the binaries of 3145b22 (aft3) and of the commit after it (aft4),
# benchstat -col '/impl@(aft3 aft4 segmentio)'.
# mixed-tails.txt: 16 rounds, benchtime 100000x, sizes 34-98, of
# '(SweepUnmask|SweepUTF8)$/class=(latin|mixed)/align=0/size=(34|36|66|98)/impl=equivcheck'
# with the binaries of cccf04c (bef), 3145b22 (tailonly) and 8e80ecf
# (head), the order of the three reversed every other round;
# benchstat -col '/impl@(bef tailonly head)'.
