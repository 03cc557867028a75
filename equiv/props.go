package equiv

import (
	"errors"
	"fmt"
	"strings"

	"github.com/leanovate/gopter"
	"pgregory.net/rapid"
)

// ErrNotCompared is returned by a property's function for a case on which
// it compared nothing (every input it drew was excluded): Property does not
// count that case.
var ErrNotCompared = errors.New("equiv: the case compared nothing")

// Property checks prop on n cases, counting each that compared something,
// and returns the first failure. Each case draws its inputs with rapid's generators from a seed
// derived from the run's, so a run's seed reproduces every case.
//
// prop returns nil when the case agrees, or the case's Counterexample
// (which Property completes with Run.Fail) or another error. It must
// report through its result, never through t's Fatal, Error, Fail or Skip
// methods, and must not call t.Repeat: rapid is driven through
// Generator.Example, which reads no command-line flag, writes no fail file
// and needs no *testing.T, so that a property runs alike in a test, the
// release gate and a fuzz target, and several run at once. rapid does not
// shrink these draws: a failing case's checks minimize its input themselves
// (see ShrinkBytes).
func (r *Run) Property(name string, n int, prop func(t *rapid.T) error) error {
	for range n {
		seed := int(r.rng.Uint64() >> 2)
		var err error
		p := Catch(func() {
			_ = withFaultPanics(func() error {
				rapid.Custom(func(t *rapid.T) bool { err = prop(t); return true }).Example(seed)
				return nil
			})
		})
		if !errors.Is(err, ErrNotCompared) {
			r.Count(1)
		}
		if p != nil {
			return r.Errorf("%s: panic: %v (seed %d)\n%s", name, p.Value, r.cfg.seed, StackOf(p))
		}
		var ce *Counterexample
		switch {
		case err == nil || errors.Is(err, ErrNotCompared):
			continue
		case errors.As(err, &ce):
			ce.Args = strings.TrimSpace(ce.Args + " property=" + quoteIfSpaced(name))
			return r.Fail(ce)
		}
		return r.Errorf("%s failed (seed %d): %v: %w", name, r.cfg.seed, err, ErrMismatch)
	}
	return nil
}

// Law checks the gopter property p on n generated cases, counting the cases
// that ran, and returns the shrunk failing case as a *Counterexample if the
// law does not hold: Func is the law's name, Args its arguments, each
// labelled with its generator's label (gopter's WithLabel; "arg0", "arg1",
// … for a generator without one), Got what the law gave (false, or the
// property's error) and Want "true". Laws check an implementation alone
// (an algebraic identity), so they need no reference, and the
// counterexample has no fuzz-target form.
func (r *Run) Law(name string, n int, p gopter.Prop) error {
	params := gopter.DefaultTestParametersWithSeed(int64(r.rng.Uint64() >> 1))
	params.MinSuccessfulTests = n
	var res *gopter.TestResult
	if pn := Catch(func() { _ = withFaultPanics(func() error { res = p.Check(params); return nil }) }); pn != nil {
		return r.Errorf("law %q: panic: %v (seed %d)\n%s", name, pn.Value, r.cfg.seed, StackOf(pn))
	}
	r.Count(res.Succeeded)
	switch {
	case res.Passed():
		return nil
	case res.Status == gopter.TestExhausted:
		return r.Errorf("law %q: gopter gave up after %d cases, %d discarded (seed %d): %w", name, res.Succeeded, res.Discarded, r.cfg.seed, ErrNothingChecked)
	}
	got := fmt.Sprintf("false (after %d cases that held)", res.Succeeded)
	if res.Error != nil {
		got = fmt.Sprintf("%v: %v (after %d cases that held)", res.Status, res.Error, res.Succeeded)
	}
	return r.Fail(&Counterexample{Func: name, Args: lawArgs(res.Args), Got: got, Want: "true"})
}

// lawArgs renders a law's failing arguments as label=value, separated by
// spaces: a []byte in hex, other values as gopter formats them with the
// spaces in slices and structs turned into commas, so that each argument
// is one word.
func lawArgs(args gopter.PropArgs) string {
	var out []string
	for i, a := range args {
		label := a.Label
		if label == "" {
			label = fmt.Sprintf("arg%d", i)
		}
		v := strings.ReplaceAll(a.ArgFormatted, " ", ",")
		if b, ok := a.Arg.([]byte); ok {
			v = fmt.Sprintf("%x", b)
		}
		out = append(out, label+"="+v)
	}
	return strings.Join(out, " ")
}

func quoteIfSpaced(s string) string {
	if strings.ContainsAny(s, " \t") {
		return fmt.Sprintf("%q", s)
	}
	return s
}
