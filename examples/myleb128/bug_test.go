package myleb128

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// TestLessOrEqualIsCaught: the planted bug (2^14 encoded in two octets)
// is caught by the vectors method at the quick level, with a minimized
// counterexample: v = 2^14, one of the integer boundaries, appended to
// nothing.
func TestLessOrEqualIsCaught(t *testing.T) {
	lessOrEqual := func(b []byte, v uint64) []byte { return appendUvarint(b, v, 1<<14+1) }
	err := equiv.Check(functest.New("AppendUvarint", binary.AppendUvarint, lessOrEqual, functest.Appends(0)),
		equiv.WithSeed(1), equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors }))
	ces := equiv.Counterexamples(err)
	if !errors.Is(err, equiv.ErrMismatch) || len(ces) == 0 {
		t.Fatalf("Check = %v, want a counterexample", err)
	}
	if ce := ces[0]; len(ce.Input) != 0 || !strings.Contains(ce.Args, "arg1=0x4000") {
		t.Errorf("counterexample %v: want v = 0x4000 appended to an empty buffer", ce)
	}
	t.Logf("caught: %v", ces[0])
}
