// Command equivprove is the release gate of the proofs: for each pair, the
// generic (pure Go) kernel's functions proved equal to the reference's for
// every input up to a bound, by the prove method (package prove), with
// equivcheck's flags, table, JSON and JUnit reports and exit codes. Each
// row's RESULT says the sizes proved; -v lists each size with its time.
//
//	cd prove && go run ./cmd/equivprove -level standard
//
// It needs z3 or cvc5 on PATH; without one every method is skipped, with
// the reason.
package main

import (
	"github.com/equivcheck/equivcheck/equiv/gate"
	"github.com/equivcheck/equivcheck/prove/internal/pairs"
)

func main() { gate.Main(pairs.Variants()...) }
