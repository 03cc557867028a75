// Package pairs wires the prove method to this module's pairs: the
// functions proved, the harnesses that observe a stateful one through
// plain functions, the sizes each is proved at, and the fuzz-target forms
// of their counterexamples. cmd/equivprove runs them as a release gate.
package pairs

import (
	optutf8 "github.com/equivcheck/equivcheck/optimized/utf8valid"
	refutf8 "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// RefWrite is one Write into the reference Validator v, observed through
// everything Write changes: its results, then Close's verdict and Offset.
func RefWrite(v *refutf8.Validator, p []byte) (n int, err, closed error, offset int64) {
	n, err = v.Write(p)
	return n, err, v.Close(), v.Offset()
}

// OptWrite is RefWrite for the optimized Validator.
func OptWrite(v *optutf8.Validator, p []byte) (n int, err, closed error, offset int64) {
	n, err = v.Write(p)
	return n, err, v.Close(), v.Offset()
}
