#!/bin/bash
# env: OUT ROUNDS SMIN SMAX BT CLASSES GODEBUGX
cd ${REPO:?}/bench
rm -f $OUT $OUT.progress
for r in $(seq $ROUNDS); do
  if [ $((r % 2)) = 0 ]; then order="before after"; else order="after before"; fi
  for side in $order; do
    GODEBUG=$GODEBUGX $BIN/$side.test -test.run '^$' -test.bench "^BenchmarkSweepUnmask\$/class=($CLASSES)/" -test.benchtime $BT -test.count 1 -sweep.min $SMIN -sweep.max $SMAX | grep ^Benchmark | sed "s/impl=/impl=$side-/" >> $OUT
  done
  echo "round $r $(date +%T)" >> $OUT.progress
done
echo finished >> $OUT.progress
