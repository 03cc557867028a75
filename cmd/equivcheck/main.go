// Command equivcheck is the release gate: it runs the conformance suite of
// every pair (reference vs optimized) on every variant this machine can run,
// with every method, and exits non-zero with a minimized counterexample when
// any pair disagrees.
//
// Usage:
//
//	equivcheck [-level quick|standard|deep] [-run REGEXP] [-seed N]
//	           [-require VARIANTS] [-json FILE] [-junit FILE] [-timeout D]
//	           [-calltimeout D] [-shard K/N] [-corpus DIR] [-fuzzdir DIR] [-v] [-list]
//
// -run selects checks whose "pair/variant/method" matches REGEXP. -require
// takes a comma-separated list of variant names ("avx2") or pair/variant
// names ("checksum/avx512") that must run here: a required variant this
// machine cannot run is a failure, not a skip. -fuzzdir (default
// fuzz/testdata/fuzz) holds regression inputs, replayed by the corpus
// method, and receives each counterexample as a "go test fuzz v1" file
// under its fuzz target's name, so that "go test ./fuzz" replays it from
// then on.
//
// Exit status: 0 when every check that ran agreed, 1 on any disagreement
// (or a call that did not return within -calltimeout, a required variant
// that could not run, a run -timeout stopped), 2 on unusable flags, an
// unreadable or corrupt corpus file, or nothing to compare on this
// machine, 130 on SIGINT or SIGTERM; docs/report.md has every condition.
//
// The command only wires: it is package gate's Main over the variants of
// internal/registry. Run "equivcheck -help" for every flag.
package main

import (
	"github.com/equivcheck/equivcheck/equiv/gate"
	"github.com/equivcheck/equivcheck/internal/registry"
)

func main() {
	gate.Main(registry.Gate()...)
}
