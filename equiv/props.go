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
			return r.Errorf("%s: panic: %v (seed %d)\n%s", name, p.Value, r.cfg.seed, p.Stack)
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
// that ran, and returns an error matching ErrMismatch that describes the
// shrunk failing case if the law does not hold. Laws check an
// implementation alone (an algebraic identity), so they need no reference.
func (r *Run) Law(name string, n int, p gopter.Prop) error {
	params := gopter.DefaultTestParametersWithSeed(int64(r.rng.Uint64() >> 1))
	params.MinSuccessfulTests = n
	var res *gopter.TestResult
	if pn := Catch(func() { _ = withFaultPanics(func() error { res = p.Check(params); return nil }) }); pn != nil {
		return r.Errorf("law %q: panic: %v (seed %d)\n%s", name, pn.Value, r.cfg.seed, pn.Stack)
	}
	r.Count(res.Succeeded)
	switch {
	case res.Passed():
		return nil
	case res.Status == gopter.TestExhausted:
		return r.Errorf("law %q: gopter gave up after %d cases, %d discarded (seed %d): %w", name, res.Succeeded, res.Discarded, r.cfg.seed, ErrNothingChecked)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "gopter: %v after %d cases", res.Status, res.Succeeded)
	if res.Error != nil {
		fmt.Fprintf(&b, ": %v", res.Error)
	}
	for _, a := range res.Args {
		fmt.Fprintf(&b, "; %s = %s", a.Label, a.ArgFormatted)
	}
	return r.Errorf("law %q does not hold (seed %d): %s: %w", name, r.cfg.seed, b.String(), ErrMismatch)
}

func quoteIfSpaced(s string) string {
	if strings.ContainsAny(s, " \t") {
		return fmt.Sprintf("%q", s)
	}
	return s
}
