package equiv

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Environment variables read by Test, so that a "go test" run can change
// the level and seed without editing code (command-line flags would be
// registered in every binary that imports this package):
//
//	EQUIV_LEVEL=deep go test ./...      # quick, standard or deep
//	EQUIV_SEED=12345 go test ./...      # reproduce a reported seed
//	EQUIV_FAILDIR=off go test ./...     # do not write counterexample files
//
// They override the Options given in code. EQUIV_FAILDIR names the
// directory (relative to the package) where Test writes each
// counterexample as a "go test fuzz v1" file, as rapid writes its fail
// files; the default is testdata/equiv.
const (
	EnvLevel   = "EQUIV_LEVEL"
	EnvSeed    = "EQUIV_SEED"
	EnvFailDir = "EQUIV_FAILDIR"
)

// Test runs Check as subtests of t, one per method (so that "go test -run
// 'TestX/exhaustive'" selects one), logs what each compared and what the
// options narrowed, reports every failure as an error and a method that
// cannot run here as a skip. Under "go test -short" a Long method that is
// Split runs a sample of its domain (WithSample(ShortSample)), which its
// log says; one that is not Split is skipped. A suite that cannot run at
// all (Suite.Err) is one fatal error. All methods share one seed, logged, which EQUIV_SEED
// reproduces. Test may be called from parallel tests.
func Test(t *testing.T, s Suite, opts ...Option) {
	t.Helper()
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	env, err := envOptions()
	if err != nil {
		t.Fatal(err)
	}
	opts = append(opts[:len(opts):len(opts)], env...)
	seed := NewConfig(opts...).Seed()
	opts = append(opts, WithSeed(seed))
	for _, line := range uncheckedLines(suiteUnchecked(s)) {
		t.Logf("not checked: %s", line)
	}
	var found []*Counterexample // written once all methods ran
	for _, m := range methods(s) {
		name := m.Name
		t.Run(name, func(t *testing.T) {
			t.Helper()
			mopts := opts[:len(opts):len(opts)]
			if m.Long && testing.Short() {
				if !m.Split {
					t.Skipf("%s takes long and cannot be sampled (not Split): it runs without -short", name)
				}
				mopts = append(mopts, WithSample(ShortSample))
			}
			var res *Result
			err := Check(s, append(mopts,
				WithMethods(func(m string) bool { return m == name }),
				WithReport(func(r Result) {
					if r.Method == name {
						res = &r
					}
				}))...)
			if res == nil {
				t.Fatalf("%s: suite has no method %q", s.Pair, name)
			}
			if res.Skipped != "" {
				t.Skip(res.Skipped)
			}
			logResult(t, res)
			for _, e := range Flatten(err) {
				t.Error(e)
				var ce *Counterexample
				if errors.As(e, &ce) {
					if ce.Stack != "" {
						t.Logf("the implementation panicked:\n%s", ce.Stack)
					}
					found = append(found, ce)
				}
			}
		})
	}
	writeCounterexamples(t, s, opts, found)
}

func logResult(t *testing.T, res *Result) {
	t.Helper()
	t.Logf("%s: %d inputs compared in %v (level %s, seed %d; %s=%d reproduces it)",
		res.Method, res.Checked, res.Elapsed, res.Level, res.Seed, EnvSeed, res.Seed)
	if len(res.Narrowed) > 0 {
		t.Logf("domain narrowed: %s", describe(res.Narrowed))
	}
}

// suiteUnchecked lists, once each, the functions some method of s leaves
// unchecked (the suite's own list, then each method's), which Test logs
// once rather than in every method.
func suiteUnchecked(s Suite) []string {
	var out []string
	for _, m := range append([]Method{{Unchecked: s.Unchecked}}, methods(s)...) {
		for _, u := range m.Unchecked {
			if !slices.Contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return out
}

// uncheckedLines groups entries of Unchecked ("Update: Impl.Update is
// nil") by reason, one line each: "Update, New, Combine (nil in the
// Impl)".
func uncheckedLines(entries []string) []string {
	var reasons []string
	funcs := map[string][]string{}
	for _, u := range entries {
		name, why, ok := strings.Cut(u, ": ")
		if !ok {
			name, why = u, "not checked"
		}
		if why == "Impl."+name+" is nil" {
			why = "nil in the Impl"
		}
		if funcs[why] == nil {
			reasons = append(reasons, why)
		}
		funcs[why] = append(funcs[why], name)
	}
	var out []string
	for _, why := range reasons {
		out = append(out, fmt.Sprintf("%s (%s)", strings.Join(funcs[why], ", "), why))
	}
	return out
}

// envOptions reads EQUIV_LEVEL and EQUIV_SEED.
func envOptions() ([]Option, error) {
	var opts []Option
	if v := os.Getenv(EnvLevel); v != "" {
		l, err := ParseLevel(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", EnvLevel, err)
		}
		opts = append(opts, WithLevel(l))
	}
	if v := os.Getenv(EnvSeed); v != "" {
		seed, err := strconv.ParseUint(strings.TrimSpace(v), 0, 64)
		if err != nil || seed == 0 {
			return nil, fmt.Errorf("%s=%q: want a nonzero unsigned integer", EnvSeed, v)
		}
		opts = append(opts, WithSeed(seed))
	}
	return opts, nil
}

// F is the part of *testing.F that the pairs' Fuzz helpers use. Besides
// *testing.F, the F of github.com/AdamKorcz/go-118-fuzz-build/testing has
// it: that tool, with which OSS-Fuzz and ClusterFuzzLite build native Go
// fuzz targets for libFuzzer (compile_native_go_fuzzer), rewrites the
// "testing" import of the file that holds the target, so a target that
// passes its f on to a helper builds there only if the helper takes an
// interface (docs/fuzzing.md).
type F interface {
	Helper()
	Add(args ...any)
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Fuzz(ff any)
}

// Reporter is what a fuzz function reports a disagreement to: a
// *testing.T, or the T that go-118-fuzz-build's F passes (whose Errorf
// panics, which libFuzzer reports as a crash with the message).
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// AddSeeds adds to f every input of target in the suite's seed corpus, so
// that a pair's Fuzz helper starts from it. (It is apart from the f.Fuzz
// call so that vet's check of f.Add against the fuzz function, which
// cannot see through a []any, does not misfire.) An F other than
// *testing.F gets none: go-118-fuzz-build's F.Add discards them, and its
// harness calls the target once per input, so loading them would only
// slow every execution (25 ms each for corpus/quic, measured in
// docs/fuzzing.md); libFuzzer reads the same corpus, converted, from the
// seed corpus zips that oss-fuzz/build.sh writes.
func AddSeeds(f F, s Suite, target FuzzTarget) {
	f.Helper()
	if _, ok := f.(*testing.F); !ok {
		return
	}
	entries, err := LoadCorpus(target, s.Corpus, nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		f.Add(e.Values...)
	}
}
