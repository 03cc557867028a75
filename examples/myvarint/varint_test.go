package myvarint_test

import (
	"errors"
	"io"
	"testing"

	"example.com/equivuser/myvarint"
	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	"github.com/equivcheck/equivcheck/reference/quic"
)

// mapErrors maps myvarint's errors onto the reference's classes.
var mapErrors = equiv.MapErrors(func(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return quic.ErrTruncated
	}
	return err
})

// Only ParseVarint is given: the suite checks it and reports the other
// QUIC functions as not checked.
var impl = quictest.Impl{Name: "myvarint", ParseVarint: myvarint.Parse}

func TestParse(t *testing.T) { quictest.Test(t, impl, mapErrors) }

func FuzzParse(f *testing.F) { quictest.Fuzz(f, impl, mapErrors) }

// TestParseLooseIsCaught: the deliberately wrong parser is caught, with a
// minimized counterexample, by Check at the quick level.
func TestParseLooseIsCaught(t *testing.T) {
	err := quictest.Check(quictest.Impl{ParseVarint: myvarint.ParseLoose}, mapErrors)
	ces := equiv.Counterexamples(err)
	if len(ces) == 0 {
		t.Fatalf("Check(ParseLoose) = %v, want counterexamples", err)
	}
	for _, ce := range ces {
		if ce.Func != "ParseVarint" || len(ce.Input) > 4 {
			t.Errorf("counterexample %v: want a short ParseVarint input", ce)
		}
	}
	t.Logf("caught: %v", ces[0])
}
