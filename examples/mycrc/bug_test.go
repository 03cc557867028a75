package mycrc

import (
	"errors"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// TestSwappedIsCaught: the planted bug (blocks loaded big-endian) is
// caught by the vectors method at the quick level, with a minimized
// counterexample: one block whose octets differ.
func TestSwappedIsCaught(t *testing.T) {
	swapped := func(p []byte) uint32 { return checksum(p, true) }
	err := equiv.Check(functest.New("CRC32C", ChecksumBitwise, swapped), equiv.WithSeed(1),
		equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors }))
	ces := equiv.Counterexamples(err)
	if !errors.Is(err, equiv.ErrMismatch) || len(ces) == 0 {
		t.Fatalf("Check = %v, want a counterexample", err)
	}
	if ce := ces[0]; len(ce.Input) != 8 {
		t.Errorf("counterexample %v: want one block", ce)
	}
	t.Logf("caught: %v", ces[0])
}
