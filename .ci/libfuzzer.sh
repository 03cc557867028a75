#!/usr/bin/env bash
# libFuzzer builds of the fuzz targets in ./fuzz, made as OSS-Fuzz and
# ClusterFuzzLite make them: oss-fuzz/build.sh, with a stand-in for the
# builder image's compile_native_go_fuzzer (go-118-fuzz-build, then clang
# with libFuzzer and AddressSanitizer, as in OSS-Fuzz's address build).
# Each binary then runs LIBFUZZER_RUNS executions (default 100000; FuzzMask
# a fifth of that, see target_runs) from its seed corpus, with its
# dictionary, LIBFUZZER_JOBS binaries at a time (one per CPU by default). Fails if a target does not build, crashes, or stops
# short of its executions; prints executions and time per target. Without
# clang on PATH it says so and exits 0.
#
# The build happens in a temporary copy of the repository: go-118-fuzz-build
# needs its testing shim in go.mod and rewrites the fuzz file while it
# builds, and neither may touch the working tree.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang >/dev/null 2>&1; then
  echo "libfuzzer: clang is not on PATH, so the libFuzzer builds are skipped (apt-get install clang runs them)"
  exit 0
fi
if [ "$(uname -s)" != Linux ]; then
  echo "libfuzzer: Go's libFuzzer instrumentation is for Linux, so the libFuzzer builds are skipped on $(uname -s)"
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/equivcheck-libfuzzer.XXXXXX")
keep=0
trap '[ "$keep" = 1 ] || rm -rf "$work"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' >"$work/probe.c"
if ! clang -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" 2>"$work/probe.log"; then
  cat "$work/probe.log"
  echo "libfuzzer: clang cannot link libFuzzer (-fsanitize=fuzzer): install its runtime (libclang-rt-dev, or clang with its recommended packages)"
  exit 1
fi

runs=${LIBFUZZER_RUNS:-100000}
g118=v0.0.0-20250520111509-a70c2aa677fa # the shim version oss-fuzz/build.sh pins
modsum=$(cksum go.mod go.sum)

src="$work/src/equivcheck"
mkdir -p "$src" "$work/out" "$work/bin" "$work/corpus"
tar --exclude=./.git --exclude=./bench --exclude=./examples -cf - . | tar -C "$src" -xf -

GOBIN="$work/bin" timeout 300 go install "github.com/AdamKorcz/go-118-fuzz-build@$g118"
cat >"$work/bin/compile_native_go_fuzzer" <<'EOF'
#!/usr/bin/env bash
# compile_native_go_fuzzer PACKAGE FUNCTION FUZZER, as OSS-Fuzz's base-builder
# does it for the address build.
set -euo pipefail
dir=$(go list -tags gofuzz -f '{{.Dir}}' "$1")
timeout 600 go-118-fuzz-build -tags gofuzz -o "$3.a" -func "$2" "$dir"
$CXX $CXXFLAGS $LIB_FUZZING_ENGINE "$3.a" -o "$OUT/$3"
EOF
chmod +x "$work/bin/compile_native_go_fuzzer"

(cd "$src" && PATH="$work/bin:$PATH" SRC="$work/src" OUT="$work/out" SANITIZER=address \
  CXX=clang CXXFLAGS=-fsanitize=address LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
  timeout 1800 bash -eu oss-fuzz/build.sh) >"$work/build.log" 2>&1 || {
  cat "$work/build.log"
  echo "libfuzzer: oss-fuzz/build.sh failed"
  exit 1
}
# The seeds as directories, from the code that wrote the zips.
(cd "$src" && go run ./oss-fuzz/seedcorpus -out "$work/seeds" >/dev/null)

# target_runs prints how many executions target $1 runs: LIBFUZZER_RUNS_$1
# if set, else LIBFUZZER_RUNS, except a fifth of it for FuzzMask. Each
# FuzzMask input runs every masking variant, MaskCopy, several chunkings and
# the stream wrappers: built with go-118-fuzz-build's instrumentation it
# ran 115-200 executions/s here (about 5-10 ms each, against about 30 us
# per variant uninstrumented), the other targets 600-2600/s, so 100,000 of
# them took 868 s, half of .ci/run.
target_runs() {
  local v="LIBFUZZER_RUNS_$1"
  if [ -n "${!v:-}" ]; then
    echo "${!v}"
  elif [ "$1" = FuzzMask ]; then
    echo $((runs / 5))
  else
    echo "$runs"
  fi
}

# run_target runs one binary and prints its executions, time and coverage.
run_target() {
  local bin=$1 t
  t=$(basename "$bin")
  local want
  want=$(target_runs "$t")
  local log="$work/$t.log" args=(-runs="$want" -print_final_stats=1 -timeout=25 -rss_limit_mb=2560
    -artifact_prefix="$work/crash-$t-")
  [ -f "$work/out/$t.dict" ] && args+=(-dict="$work/out/$t.dict")
  mkdir -p "$work/corpus/$t" "$work/seeds/$t"
  local start=$EPOCHREALTIME rc=0
  timeout 1800 "$bin" "${args[@]}" "$work/corpus/$t" "$work/seeds/$t" >"$log" 2>&1 || rc=$?
  local secs execs cov seeds
  secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -o 'DONE *cov: [0-9]* ft: [0-9]*' "$log" | sed 's/DONE *//')
  seeds=$(find "$work/seeds/$t" -type f | wc -l)
  # "! -ge", not "-lt": a count that is not a number fails the target.
  if [ "$rc" != 0 ] || ! [ "${execs:-0}" -ge "$want" ]; then
    grep -v -E '^(INFO:|#[0-9]+ )' "$log" | head -60
    echo "libfuzzer: $t FAILED (exit $rc, ${execs:-0} of $want executions in $secs s)"
    local c
    for c in "$work/crash-$t-"*; do
      [ -e "$c" ] || continue
      echo "libfuzzer: to replay $c with go test:"
      echo "  go run ./oss-fuzz/seedcorpus -target $t -testcase $c > fuzz/testdata/fuzz/$t/libfuzzer-${c##*-} && go test ./fuzz -run $t"
    done
    return 1
  fi
  awk -v t="$t" -v n="$execs" -v s="$secs" -v seeds="$seeds" -v cov="$cov" \
    'BEGIN { printf "%-22s %7d executions in %6.1f s (%5.0f/s), %2d seeds, %s\n", t, n, s, n / s, seeds, cov }'
}

# The targets run LIBFUZZER_JOBS at a time, each a single process; their
# reports are printed in order once all are done.
parallel=${LIBFUZZER_JOBS:-$(nproc)}
targets=()
for bin in "$work/out"/Fuzz*; do
  case $(basename "$bin") in *.*) continue ;; esac # the .dict and .zip files
  targets+=("$(basename "$bin")")
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  { run_target "$bin" || touch "$work/${targets[-1]}.failed"; } >"$work/${targets[-1]}.report" 2>&1 &
done
wait
failed=0
for t in "${targets[@]}"; do
  cat "$work/$t.report"
  [ ! -e "$work/$t.failed" ] || failed=1
done
if [ "${#targets[@]}" = 0 ]; then
  echo "libfuzzer: oss-fuzz/build.sh built no fuzz targets"
  failed=1
fi

if [ "$(cksum go.mod go.sum)" != "$modsum" ]; then
  echo "libfuzzer: go.mod or go.sum changed in the working tree"
  failed=1
fi
if [ "$failed" = 1 ]; then
  keep=1
  echo "libfuzzer: kept $work (binaries in out/, crash inputs crash-*: run a binary on one to reproduce)"
  exit 1
fi
