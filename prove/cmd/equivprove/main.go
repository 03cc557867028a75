// Command equivprove is the release gate of the proofs: for each pair, the
// generic (pure Go) kernel's functions proved equal to the reference's for
// every input up to a bound, by the prove method (package prove), with
// equivcheck's flags, table, JSON and JUnit reports and exit codes. Each
// row's RESULT says the sizes proved; -v lists each size with its time.
//
//	cd prove && go run ./cmd/equivprove -level standard -fuzzdir ../fuzz/testdata/fuzz
//
// It needs z3 or cvc5 on PATH (z3 is preferred; PROVE_SOLVER=cvc5 picks
// cvc5); without one every method is skipped, with the reason. The
// functions are executed from the source in the working directory's
// module, which must be the source the binary was built from.
package main

import (
	"os"

	"github.com/equivcheck/equivcheck/equiv/gate"
	"github.com/equivcheck/equivcheck/prove"
	"github.com/equivcheck/equivcheck/prove/internal/pairs"
)

func main() {
	var opts []prove.Option
	if s := os.Getenv("PROVE_SOLVER"); s != "" {
		opts = append(opts, prove.Solver(s))
	}
	gate.Main(pairs.Variants(opts...)...)
}
