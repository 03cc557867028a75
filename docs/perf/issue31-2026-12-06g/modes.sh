#!/bin/bash
# env: MODES, OUT, ROUNDS, SMIN, SMAX, CLASSES, GODEBUGX
cd ${REPO:?}/bench
rm -f $OUT
arr=($MODES); n=${#arr[@]}
for r in $(seq $ROUNDS); do
  off=$((r % n))
  for i in $(seq 0 $((n-1))); do
    m=${arr[$(((i+off)%n))]}
    IFS=: read name mode min <<< "$m"
    GODEBUG=$GODEBUGX EXP_MODE=$mode EXP_MIN=$min $BIN/bench.test -test.run '^$' -test.bench "^BenchmarkSweepUnmask\$/class=($CLASSES)/" -test.benchtime ${BT:-5000x} -test.count 1 -sweep.min $SMIN -sweep.max $SMAX | grep ^Benchmark | sed "s/impl=/impl=$name-/" >> $OUT
  done
  echo "round $r $(date +%T)" >> $OUT.progress
done
echo finished >> $OUT.progress
