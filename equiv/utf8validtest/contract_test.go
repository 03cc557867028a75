package utf8validtest

import (
	"fmt"
	"io"
	"reflect"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// TestContracts: every function of Impl and method of a Validator and a
// Reader has one contract, and a quick run (a sample of its long
// methods) applies to each every mechanism its contract calls for; so it
// does to Unmask and Offset, the optional methods of a Validator, whose
// contracts (optional) name each method of Unmasker and Offsetter.
func TestContracts(t *testing.T) {
	impl := Impl{Valid: ref.Valid, NewValidator: func() Validator { return new(ref.Validator) },
		NewReader: func(r io.Reader, key [4]byte, v Validator) Reader { return ref.NewReader(r, key, v.(*ref.Validator)) }}
	var results []equiv.Result
	err := Check(impl, equiv.WithSeed(1), equiv.WithSample(equiv.ShortSample),
		equiv.WithReport(func(r equiv.Result) { results = append(results, r) }))
	if err != nil {
		t.Fatal(err)
	}
	if err := equiv.CheckContracts(Impl{}, contracts, results); err != nil {
		t.Error(err)
	}
	for _, p := range optionalProblems(results) {
		t.Error(p)
	}
}

// optionalProblems is CheckContracts for optional: each method of
// Unmasker and Offsetter has its contract, and each mechanism a contract
// calls for was applied to some call.
func optionalProblems(results []equiv.Result) []string {
	var problems []string
	declared := map[string]*equiv.Contract{}
	for i := range optional {
		declared[optional[i].Func] = &optional[i]
	}
	for _, it := range []reflect.Type{reflect.TypeFor[Unmasker](), reflect.TypeFor[Offsetter]()} {
		for m := range it.NumMethod() {
			if fn := it.Name() + "." + it.Method(m).Name; declared[fn] == nil {
				problems = append(problems, fmt.Sprintf("%s: no Contract declared", fn))
			}
		}
	}
	applied := map[string]int64{}
	for _, r := range results {
		for _, a := range r.Applied {
			applied[a.Func+" "+string(a.Mechanism)] += a.Calls
		}
	}
	for _, c := range optional {
		for _, m := range equiv.Mechanisms {
			if ok, _ := c.Applies(m); ok && applied[c.Func+" "+string(m)] == 0 {
				problems = append(problems, fmt.Sprintf("%s: the contract calls for %s, which no call had", c.Func, m))
			}
		}
	}
	return problems
}
