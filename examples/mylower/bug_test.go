package mylower

import (
	"bytes"
	"errors"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// TestExclusiveIsCaught: the planted bug ('A' and 'Z' left out of the
// word path) is caught by the vectors method at the quick level, with a
// minimized counterexample: one word holding an 'A' or a 'Z'.
func TestExclusiveIsCaught(t *testing.T) {
	exclusive := func(b []byte) { lower(b, true) }
	err := equiv.Check(functest.New("Lower", LowerBytewise, exclusive, functest.Writes(0)), equiv.WithSeed(1),
		equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors }))
	ces := equiv.Counterexamples(err)
	if !errors.Is(err, equiv.ErrMismatch) || len(ces) == 0 {
		t.Fatalf("Check = %v, want a counterexample", err)
	}
	if ce := ces[0]; len(ce.Input) != 8 || !bytes.ContainsAny(ce.Input, "AZ") {
		t.Errorf("counterexample %v: want one word with an 'A' or a 'Z'", ce)
	}
	t.Logf("caught: %v", ces[0])
}
