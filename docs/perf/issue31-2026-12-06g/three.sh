#!/bin/bash
# env: OUT ROUNDS SMIN SMAX BT CLASSES SIDES
cd ${REPO:?}/bench
rm -f $OUT $OUT.progress
arr=($SIDES); n=${#arr[@]}
for r in $(seq $ROUNDS); do
  off=$((r % n))
  for i in $(seq 0 $((n-1))); do
    side=${arr[$(((i+off)%n))]}
    $BIN/$side.test -test.run '^$' -test.bench "^BenchmarkSweepUnmask\$/class=($CLASSES)/" -test.benchtime $BT -test.count 1 -sweep.min $SMIN -sweep.max $SMAX | grep ^Benchmark | sed "s/impl=/impl=$side-/" >> $OUT
  done
  echo "round $r $(date +%T)" >> $OUT.progress
done
echo finished >> $OUT.progress
