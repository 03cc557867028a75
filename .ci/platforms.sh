#!/usr/bin/env bash
# The same verdict on every platform: cross-build and vet for the systems
# the assembly and the guard pages ship to, and run the tests (with -short:
# the exhaustive enumerations run whole natively, sampled here) under wasip1 (wazero, installed
# from the Go module proxy), natively as 32-bit 386 where the kernel can, and under qemu-user for
# a big-endian (s390x), a 32-bit ARM and an arm64 target (the NEON masking)
# when qemu is installed.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every target builds; go vet (which compiles the tests as well, the
# cost of this step) runs where this script runs no tests and the build
# tags choose files of their own: Windows (its guard pages and mirror),
# darwin/arm64 (the BSD mirror, arm64) and s390x (big-endian). The 386
# and wasip1 test runs below vet as go test does.
for target in darwin/arm64 darwin/amd64 windows/amd64 freebsd/amd64 js/wasm wasip1/wasm linux/386 linux/s390x linux/arm linux/arm64; do
  case $target in
  windows/amd64 | darwin/arm64 | linux/s390x)
    echo "vet and build: $target"
    GOOS=${target%/*} GOARCH=${target#*/} go vet ./...
    ;;
  *) echo "build: $target" ;;
  esac
  GOOS=${target%/*} GOARCH=${target#*/} go build ./...
done

# The emulated runs test the product code (reference/, optimized/, whose
# TestConformance runs every suite, the long exhaustive method on a
# sample of a quarter of its units under -short) and the engine; the
# suites' own tests and the gate's run natively.
emulated="./reference/... ./optimized/... ./equiv"

# 386 runs natively only where the kernel can run 32-bit x86 binaries.
probe=$(mktemp -d)
printf 'package main\n\nfunc main() {}\n' >"$probe/main.go"
if (cd "$probe" && GOARCH=386 go build -o probe main.go && ./probe) 2>/dev/null; then
  echo "tests under linux/386 (32-bit, native)"
  GOARCH=386 go test -short $emulated
else
  echo "this kernel cannot run linux/386 binaries: skipping the native 386 run (linux/arm under qemu is the 32-bit run)"
fi

gobin=$(mktemp -d)
echo "tests under wasip1/wasm with wazero"
GOBIN=$gobin go install github.com/tetratelabs/wazero/cmd/wazero@v1.12.0
PATH=$gobin:$PATH GOOS=wasip1 GOARCH=wasm GOWASIRUNTIME=wazero \
  go test -short -exec="$(go env GOROOT)/lib/wasm/go_wasip1_wasm_exec" $emulated

for pair in s390x:qemu-s390x-static arm:qemu-arm-static arm64:qemu-aarch64-static; do
  arch=${pair%%:*} qemu=${pair#*:}
  if command -v "$qemu" >/dev/null; then
    echo "tests under linux/$arch with $qemu"
    GOARCH=$arch go test -short -exec="$qemu" $emulated
  else
    echo "$qemu is not installed (apt-get install qemu-user-static): skipping the linux/$arch test run"
  fi
done
