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

// TestTranscriptShowsWhatAgreeCompares: a transcript that agree refuses
// against another prints differently from it, so that no counterexample
// shows the same got and want (a Read that wrote into p past n once
// printed as one that did not).
func TestTranscriptShowsWhatAgreeCompares(t *testing.T) {
	c := newChecker(Impl{}, equiv.NewConfig())
	canaries := []byte{equiv.Canary, equiv.Canary}
	base := func() transcript {
		return transcript{calls: []call{{n: 1, next: 1, tail: canaries}}, offset: 1, out: []byte{'a'}}
	}
	if n := reflect.TypeFor[transcript]().NumField(); n != 8 {
		t.Fatalf("transcript has %d fields; give each one a case here", n)
	}
	if n := reflect.TypeFor[call]().NumField(); n != 4 {
		t.Fatalf("call has %d fields; give each one a case here", n)
	}
	changes := map[string]func(*transcript){
		"valid":    func(x *transcript) { x.valid = true },
		"n":        func(x *transcript) { x.calls[0].n = 0 },
		"next":     func(x *transcript) { x.calls[0].next = 2 },
		"err":      func(x *transcript) { x.calls[0].err = ref.ErrInvalid },
		"tail":     func(x *transcript) { x.calls[0].tail = []byte{equiv.Canary, 'b'} },
		"calls":    func(x *transcript) { x.calls = append(x.calls, call{}) },
		"midClose": func(x *transcript) { x.midClose = ref.ErrIncomplete },
		"close":    func(x *transcript) { x.close = ref.ErrInvalid },
		"offset":   func(x *transcript) { x.offset = 2 },
		"out":      func(x *transcript) { x.out = []byte{'b'} },
		"p":        func(x *transcript) { x.p = &equiv.Panic{Value: "boom"} },
		"wrong":    func(x *transcript) { x.wrong = "modified p" },
	}
	for name, change := range changes {
		want := base()
		got := base()
		got.calls = append([]call(nil), got.calls...)
		change(&got)
		if c.agree(got, want) {
			t.Errorf("%s: agree accepts the change", name)
			continue
		}
		for _, fn := range []string{"Valid", "Write", "Unmask", "Read"} {
			if fn == "Valid" && name != "valid" && name != "p" && name != "wrong" {
				continue // Valid's transcript holds only its verdict
			}
			if fn != "Unmask" && name == "next" || fn != "Valid" && name == "valid" {
				continue // only Unmask returns a position, only Valid a verdict
			}
			if got.String(fn) == want.String(fn) {
				t.Errorf("%s, %s: got and want print the same: %q", name, fn, got.String(fn))
			}
		}
	}
}
