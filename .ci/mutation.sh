#!/usr/bin/env bash
# make mutation: gremlins over the optimized and reference packages, then the
# corrected figures and the survivors against docs/mutation.md
# (internal/cmd/mutationreport; docs/mutation.md says how it works).
#
# It runs on a snapshot of the working tree (tracked and untracked, ignored
# files left out), or of MUTATION_REV if set, copied under $TMPDIR: gremlins
# measures coverage in the tree it is pointed at and copies it for every
# worker, so edits made during the run must not reach it. One package at a
# time, one worker: the tests are CPU-bound and a second run would only make
# both slower and turn slow mutants into TIMED OUT ones.
#
# Settings: MUTATION_OUT (default out/mutation) gets <pkg>.json, <pkg>.log,
# <pkg>.txt (survivors) and summary.txt; MUTATION_PKGS; MUTATION_TIMEOUT
# (seconds per package, default 2400); MUTATION_COEFFICIENT (gremlins
# --timeout-coefficient, default 10); MUTATION_MIN (percent, default 97).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

GREMLINS_VERSION=v0.6.0
pkgs=${MUTATION_PKGS:-"optimized/checksum optimized/websocket optimized/quic optimized/utf8valid reference/checksum reference/websocket reference/quic reference/utf8valid"}
out=${MUTATION_OUT:-out/mutation}
mkdir -p "$out"
out=$(cd "$out" && pwd)

snap=$(mktemp -d "${TMPDIR:-/tmp}/equivcheck-mutation.XXXXXX")
bin=$(mktemp -d "${TMPDIR:-/tmp}/equivcheck-gremlins.XXXXXX")
trap 'rm -rf "$snap" "$bin"' EXIT
if [ -n "${MUTATION_REV:-}" ]; then
  git archive "$MUTATION_REV" | tar -x -C "$snap"
  echo "mutation: snapshot of $MUTATION_REV in $snap"
else
  git ls-files -z --cached --others --exclude-standard | xargs -0 -r sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh \
    | tar --null -T - -cf - | tar -x -C "$snap"
  echo "mutation: snapshot of the working tree ($(git rev-parse --short HEAD) plus local changes) in $snap"
fi

# gremlins from the module proxy at a pinned version, built once outside the
# snapshot (go install rather than go run, so that timeout signals gremlins
# itself and not the go command wrapping it).
GOBIN="$bin" go install "github.com/go-gremlins/gremlins/cmd/gremlins@$GREMLINS_VERSION"

args=()
failed=0
cd "$snap"
for pkg in $pkgs; do
  name=${pkg//\//-}
  args+=("$pkg=$out/$name.json")
  rm -f "$out/$name.json"
  start=$(date +%s)
  printf 'mutation: %s ... ' "$pkg"
  if GOFLAGS=-count=1 timeout -k 60 "${MUTATION_TIMEOUT:-2400}" "$bin/gremlins" unleash \
      --workers 1 --timeout-coefficient "${MUTATION_COEFFICIENT:-10}" \
      -o "$out/$name.json" "./$pkg" >"$out/$name.log" 2>&1 && [ -s "$out/$name.json" ]; then
    echo "$(( $(date +%s) - start ))s"
  else
    echo "FAILED after $(( $(date +%s) - start ))s (timeout ${MUTATION_TIMEOUT:-2400}s); last lines of $out/$name.log:"
    tail -n 20 "$out/$name.log"
    failed=1
  fi
done
if [ "$failed" = 1 ]; then exit 1; fi

cd "$root"
go run ./internal/cmd/mutationreport -src "$snap" -docs "$snap/docs/mutation.md" \
  -min "${MUTATION_MIN:-97}" -survivors "$out" "${args[@]}"
