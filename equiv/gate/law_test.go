package gate_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/gate"
)

// TestLawInJSON: a law that does not hold has its counterexample in the
// JSON report, as a disagreement with the reference has: the law's name,
// its labelled arguments, what it gave and what it should.
func TestLawInJSON(t *testing.T) {
	halves := func(b []byte) []byte { return b[:len(b)/2] }
	suite := equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: equiv.MethodProperties, Func: func(r *equiv.Run) error {
		return r.Law("halving twice is the identity", 50, prop.ForAll(func(b []byte) bool {
			return bytes.Equal(halves(halves(b)), b)
		}, gen.SliceOf(gen.UInt8()).WithLabel("b")))
	}}}}
	code, stdout, stderr := runGate(t, []gate.Variant{{Name: "halves", Suite: suite}}, "-seed", "1", "-json", "-")
	var rep struct {
		Rows []struct {
			Status         string
			Counterexample *struct{ Func, Args, Got, Want, Seed string }
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 1 || len(rep.Rows) != 1 {
		t.Fatalf("exit %d, report (%v):\n%s%s", code, err, stdout, stderr)
	}
	ce := rep.Rows[0].Counterexample
	if ce == nil || ce.Func != "halving twice is the identity" || !strings.HasPrefix(ce.Args, "b=") ||
		!strings.HasPrefix(ce.Got, "false") || ce.Want != "true" || ce.Seed != "1" {
		t.Errorf("the law's counterexample in the JSON: %+v", ce)
	}
}
