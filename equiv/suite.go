package equiv

import (
	"errors"
	"testing"
)

// allMethods is the order in which every suite runs its methods.
var allMethods = []string{MethodVectors, MethodExhaustive, MethodGuard, MethodProperties, MethodCorpus}

// testSuite is the *testing.T wrapper shared by the Test* functions: it runs
// each method of the suite core as a subtest (so -run can select one), logs
// what each method checked, reports every counterexample as an error and a
// skipped method as a skip.
func testSuite(t *testing.T, core func(...Option) error, opts []Option) {
	t.Helper()
	for _, name := range allMethods {
		t.Run(name, func(t *testing.T) {
			var res *Result
			o := append(append([]Option(nil), opts...),
				WithMethods(func(m string) bool { return m == name }),
				WithReport(func(r Result) {
					if r.Method == name {
						res = &r
					}
				}))
			err := core(o...)
			if res == nil {
				t.Fatalf("suite has no method %q", name)
			}
			if res.Skipped != "" {
				t.Skip(res.Skipped)
			}
			t.Logf("%s: %d inputs compared in %v (seed %d)", name, res.Checked, res.Elapsed, res.Seed)
			for _, e := range flatten(err) {
				t.Error(e)
			}
		})
	}
}

// flatten undoes errors.Join.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// Counterexamples returns every Counterexample in err, which may be the
// joined error returned by a suite.
func Counterexamples(err error) []*Counterexample {
	var out []*Counterexample
	for _, e := range flatten(err) {
		var c *Counterexample
		if errors.As(e, &c) {
			out = append(out, c)
		}
	}
	return out
}
