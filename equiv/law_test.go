package equiv_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/equivcheck/equivcheck/equiv"
)

// TestLawCounterexample: a law that does not hold is a Counterexample
// (for the gate's reports), named by the law, its arguments labelled
// (gopter's labels, else arg0, arg1, …), in the one message format.
func TestLawCounterexample(t *testing.T) {
	halves := func(b []byte) []byte { return b[:len(b)/2] }
	law := func(labelled bool) equiv.Suite {
		return equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: equiv.MethodProperties, Func: func(r *equiv.Run) error {
			return r.Law("reversing twice is the identity", 50, lawOf(halves, labelled))
		}}}}
	}
	ces := equiv.Counterexamples(equiv.Check(law(true), equiv.WithSeed(3)))
	if len(ces) != 1 || !strings.HasPrefix(ces[0].Args, "b=") {
		t.Errorf("labelled: %v, want one counterexample with b=…", ces)
	}
	ces = equiv.Counterexamples(equiv.Check(law(false), equiv.WithSeed(3)))
	var ce *equiv.Counterexample
	if len(ces) == 1 {
		ce = ces[0]
	}
	if ce == nil || !errors.Is(ce, equiv.ErrMismatch) || ce.Func != "reversing twice is the identity" || !strings.HasPrefix(ce.Args, "arg0=") ||
		ce.Want != "true" || !strings.HasPrefix(ce.Got, "false") || ce.Seed != 3 {
		t.Fatalf("law counterexample %#v (of %v)", ce, ces)
	}
	msg := ce.Error()
	if !strings.HasPrefix(msg, `toy/properties: "reversing twice is the identity"(arg0=`) || !strings.HasSuffix(msg, "want true (seed 3)") {
		t.Errorf("message %q", msg)
	}
}

// lawOf is the toy suite's law over impl, its argument labelled "b" or
// not labelled.
func lawOf(impl func([]byte) []byte, labelled bool) gopter.Prop {
	g := gen.SliceOf(gen.UInt8())
	if labelled {
		g = g.WithLabel("b")
	}
	return prop.ForAll(func(b []byte) bool { return bytes.Equal(impl(impl(b)), b) }, g)
}
