package mymask_test

import (
	"errors"
	"testing"

	"example.com/equivuser/mymask"
	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
)

var impl = websockettest.Impl{Name: "mymask", Mask: mymask.Mask}

// TestMask checks mymask on the domain it documents: pos >= 0. The
// narrowing is reported in every method's log.
func TestMask(t *testing.T) { websockettest.Test(t, impl, websockettest.NonNegativePos()) }

// TestNegativePosIsOutOfScope shows why the option is needed: over the
// full domain the suite finds the panic at a negative position.
func TestNegativePosIsOutOfScope(t *testing.T) {
	err := websockettest.Check(impl, equiv.WithMethods(func(m string) bool { return m == equiv.MethodExhaustive }))
	if !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("Check over every pos = %v, want a mismatch at a negative pos", err)
	}
	t.Logf("caught, as expected: %v", equiv.Counterexamples(err)[0])
}

func FuzzMask(f *testing.F) { websockettest.Fuzz(f, impl, websockettest.NonNegativePos()) }
