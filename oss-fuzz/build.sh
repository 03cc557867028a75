#!/bin/bash -eu
# OSS-Fuzz build of equivcheck's differential fuzz targets (docs/fuzzing.md).
#
# In OSS-Fuzz's Go builder image (oss-fuzz/Dockerfile) or ClusterFuzzLite's
# (.clusterfuzzlite/), with the repository at $SRC/equivcheck, it writes to
# $OUT, for every fuzz target FuzzX in ./fuzz:
#   FuzzX                     the libFuzzer binary (compile_native_go_fuzzer:
#                             go-118-fuzz-build, then $CXX with libFuzzer);
#   FuzzX_seed_corpus.zip     its inputs from corpus/ and fuzz/testdata/fuzz/,
#                             converted from "go test fuzz v1" files to the
#                             bytes the harness decodes (oss-fuzz/seedcorpus);
#   FuzzX.dict                for FuzzQUICHeader (oss-fuzz/quic.dict).
# .ci/libfuzzer.sh runs this same script outside the image, with clang.
#
# go.mod says "go 1.26.0": the image's older Go fetches that toolchain
# itself (GOTOOLCHAIN=auto, the default).

cd "$SRC/equivcheck"

# The harness go-118-fuzz-build generates imports its testing shim from the
# fuzzed module. Pinned: the shim decodes the arguments, and
# oss-fuzz/seedcorpus writes the seeds in the layout this version reads.
go get github.com/AdamKorcz/go-118-fuzz-build/testing@v0.0.0-20250520111509-a70c2aa677fa

for target in $(go test ./fuzz -list '^Fuzz' | grep '^Fuzz'); do
  compile_native_go_fuzzer github.com/equivcheck/equivcheck/fuzz "$target" "$target"
done

go run ./oss-fuzz/seedcorpus -zip -out "$OUT"

# For the raw-datagram target only: FuzzQUICStructured's bytes fill a
# header grammar, where the tokens measured no gain (docs/fuzzing.md).
cp oss-fuzz/quic.dict "$OUT/FuzzQUICHeader.dict"
