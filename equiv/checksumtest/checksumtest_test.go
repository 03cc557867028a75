package checksumtest_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// refImpl is the reference wired as an implementation under test.
var refImpl = checksumtest.Impl{
	Name:     "reference",
	Sum:      ref.Sum,
	Checksum: ref.Checksum,
	Update:   ref.Update,
	New:      func() checksumtest.Digest { return ref.New() },
}

// TestReference runs the suite on the reference itself: the RFC vectors
// check the oracle, and every method must compare a nonzero number of
// inputs and agree.
func TestReference(t *testing.T) {
	checksumtest.Test(t, refImpl)
}

// FuzzReference is the one-line fuzz target a user writes; plain "go
// test" runs it on the seed corpus.
func FuzzReference(f *testing.F) { checksumtest.Fuzz(f, refImpl) }

func FuzzReferenceParts(f *testing.F) {
	checksumtest.FuzzAll(f, []checksumtest.Impl{refImpl, {Name: "sum-only", Sum: ref.Sum}})
}

// results runs Check with opts and returns its error and each method's
// Result.
func results(impl checksumtest.Impl, opts ...equiv.Option) (map[string]equiv.Result, error) {
	res := map[string]equiv.Result{}
	err := checksumtest.Check(impl, append(opts, equiv.WithReport(func(r equiv.Result) { res[r.Method] = r }))...)
	return res, err
}

// only selects one method.
func only(method string) equiv.Option {
	return equiv.WithMethods(func(m string) bool { return m == method })
}

// TestCountsUnchanged is the refactor's proof: on a complete
// implementation, seed 1 at quick compares exactly as many inputs per
// method as the flat package did before the split.
func TestCountsUnchanged(t *testing.T) {
	want := map[string]int64{
		equiv.MethodVectors:    247,
		equiv.MethodExhaustive: 18956703,
		equiv.MethodGuard:      3076,
		equiv.MethodProperties: 1900,
		equiv.MethodCorpus:     6,
	}
	checkCounts(t, refImpl, want)
}

// TestPartialImplementation: an implementation with Sum alone checks only
// Sum, counts only what it compared, and says in every Result what it left
// out.
func TestPartialImplementation(t *testing.T) {
	want := map[string]int64{
		equiv.MethodVectors:    3 + (12+8+8)*3,             // the RFC sums, and Sum of every prefix at 3 alignments
		equiv.MethodExhaustive: 9*65793 + 769*64*8 + 5*2*2, // short inputs, the grid without Checksum, long inputs
		equiv.MethodGuard:      769 * 2,                    // every length at both edges, without Digest
		equiv.MethodProperties: 300 + 4*300,                // rapid Sum and four laws: no Digest machine, no Update law
		equiv.MethodCorpus:     6,
	}
	res := checkCounts(t, checksumtest.Impl{Sum: ref.Sum}, want)
	unchecked := map[string][]string{
		equiv.MethodVectors:    {"Checksum: Impl.Checksum is nil", "Update: Impl.Update is nil", "New: Impl.New is nil"},
		equiv.MethodExhaustive: {"Checksum: Impl.Checksum is nil", "Update: Impl.Update is nil", "New: Impl.New is nil"},
		equiv.MethodGuard:      {"New: Impl.New is nil"},
		equiv.MethodProperties: {"Update: Impl.Update is nil", "New: Impl.New is nil"},
	}
	for m, u := range unchecked {
		if got := res[m].Unchecked; !slices.Equal(got, u) {
			t.Errorf("%s: Unchecked = %q, want %q", m, got, u)
		}
	}
	full, _ := results(refImpl, only(equiv.MethodVectors))
	if u := full[equiv.MethodVectors].Unchecked; len(u) != 0 {
		t.Errorf("complete implementation: Unchecked = %q, want none", u)
	}
}

// checkCounts runs impl with seed 1 at quick and compares each method's
// count with want (the guard count only where guard pages exist).
func checkCounts(t *testing.T, impl checksumtest.Impl, want map[string]int64) map[string]equiv.Result {
	t.Helper()
	res, err := results(impl, equiv.WithSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	if equiv.GuardSkip() != "" {
		delete(want, equiv.MethodGuard)
	}
	for _, m := range slices.Sorted(maps.Keys(want)) {
		if got := res[m].Checked; got != want[m] {
			t.Errorf("%s compared %d inputs, want %d", m, got, want[m])
		}
	}
	return res
}

// TestNilSum: a missing Sum is one error naming it, not one per method.
func TestNilSum(t *testing.T) {
	var reports int
	err := checksumtest.Check(checksumtest.Impl{Checksum: ref.Checksum},
		equiv.WithReport(func(equiv.Result) { reports++ }))
	if errs := equiv.Flatten(err); len(errs) != 1 || errs[0].Error() != "checksumtest: Impl.Sum is nil" {
		t.Errorf("Check = %q, want the one error %q", errs, "checksumtest: Impl.Sum is nil")
	}
	if reports != 0 {
		t.Errorf("%d methods reported, want none", reports)
	}
	if err := checksumtest.CheckInput(checksumtest.Impl{}, nil, 0, nil); err == nil {
		t.Errorf("CheckInput with a nil Sum = nil, want an error")
	}
	if s := checksumtest.NewSuite(checksumtest.Impl{}); s.Err == nil || len(s.Methods) != 0 {
		t.Errorf("NewSuite with a nil Sum = %d methods, Err %v", len(s.Methods), s.Err)
	}
}

// TestConcurrentChecks checks one Suite value from two goroutines.
func TestConcurrentChecks(t *testing.T) {
	s := checksumtest.NewSuite(refImpl)
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			errs <- equiv.Check(s, equiv.WithMethods(func(m string) bool {
				return m == equiv.MethodVectors || m == equiv.MethodGuard || m == equiv.MethodCorpus
			}))
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestCheckInputMinimizes: a fuzz input is minimized, and names the pair
// and the method "fuzz".
func TestCheckInputMinimizes(t *testing.T) {
	data := append([]byte("hello, odd"), 0x80) // 11 bytes: dropOdd drops the 0x80
	err := checksumtest.CheckInput(checksumtest.Impl{Sum: dropOdd}, data, 0x1234, nil)
	var ce *equiv.Counterexample
	if !errors.As(err, &ce) {
		t.Fatalf("CheckInput = %v, want a counterexample", err)
	}
	if ce.Pair != "checksum" || ce.Method != "fuzz" || ce.Func != "Sum" || len(ce.Input) != 1 || !strings.Contains(ce.Args, "initial=0x0000") {
		t.Errorf("counterexample %q/%q %s of %d bytes, want checksum/fuzz Sum of 1 byte onto 0: %v", ce.Pair, ce.Method, ce.Func, len(ce.Input), ce)
	}
	if err := checksumtest.CheckInput(refImpl, data, 0x1234, []byte{5, 2, 0, 3, 1, 0, 9, 1}); err != nil {
		t.Errorf("CheckInput(reference) = %v", err)
	}
}
