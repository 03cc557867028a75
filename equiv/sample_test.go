package equiv_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
)

// unitsSuite has one Split method of 12 units, unit i comparing i+1
// inputs (none for the units in empty) and reaching the class "unit 0" in
// unit 0; ran records the units it ran, sorted (a Split method's lanes
// run at once).
func unitsSuite(ran *[]int, empty func(int) bool) equiv.Suite {
	var mu sync.Mutex
	return equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "units", Split: true, Long: true, Func: func(r *equiv.Run) error {
		r.Expect("unit 0")
		for i := range 12 {
			if !r.Mine(i) {
				continue
			}
			mu.Lock()
			*ran = append(*ran, i)
			slices.Sort(*ran)
			mu.Unlock()
			if i == 0 {
				r.Reach("unit 0")
			}
			if !empty(i) {
				r.Count(i + 1)
			}
		}
		return nil
	}}}}
}

// TestSample: WithSample(4) runs the units whose index is the seed mod 4,
// says so in Narrowed and does not require the classes of the units it
// left out; without it every unit runs and nothing is narrowed.
func TestSample(t *testing.T) {
	never := func(int) bool { return false }
	for _, seed := range []uint64{4, 5, 6, 7} {
		var ran []int
		rs, err := results(unitsSuite(&ran, never), equiv.WithSeed(seed), equiv.WithSample(4))
		want := []int{int(seed % 4), int(seed%4) + 4, int(seed%4) + 8}
		if err != nil || !slices.Equal(ran, want) || len(rs) != 1 {
			t.Fatalf("seed %d: ran units %v (%v), want %v", seed, ran, err, want)
		}
		if n := rs[0].Narrowed; len(n) != 1 || !strings.Contains(n[0], "sampled") || !strings.Contains(n[0], "3 of its 12 units") {
			t.Errorf("seed %d: Narrowed %q, want the sample named", seed, n)
		}
	}
	var ran []int
	rs, err := results(unitsSuite(&ran, never), equiv.WithSeed(5))
	if err != nil || len(ran) != 12 || rs[0].Checked != 78 || rs[0].Narrowed != nil {
		t.Errorf("without WithSample: ran %v, checked %d, narrowed %q (%v); want all 12 units, 78, none", ran, rs[0].Checked, rs[0].Narrowed, err)
	}
}

// TestSampleComparedNothing: a sample whose units compare nothing (the
// parts for functions an implementation leaves out) is skipped, saying
// so, as an empty shard is: neither passed nor failed.
func TestSampleComparedNothing(t *testing.T) {
	var ran []int
	rs, err := results(unitsSuite(&ran, func(i int) bool { return i%4 == 1 }), equiv.WithSeed(5), equiv.WithSample(4))
	if err != nil || len(rs) != 1 || !strings.Contains(rs[0].Skipped, "the sample (WithSample 4) compared nothing") {
		t.Errorf("result %+v, err %v; want skipped, naming the sample", rs, err)
	}
}

// TestShortSamples: under go test -short, Test runs a Long Split method
// on a sample, saying so in the log, where it used to skip it (which only
// -v showed); a Long method that is not Split is still skipped, saying why.
// The run is a child process (this test binary with -test.short).
func TestShortSamples(t *testing.T) {
	out := runChild(t, "TestShortChild", []string{equiv.EnvSeed + "=6"}, "-test.short")
	for _, want := range []string{"--- PASS: TestShortChild/units", "domain narrowed: sampled", "3 of its 12 units", "--- SKIP: TestShortChild/whole", "cannot be sampled"} {
		if !strings.Contains(out, want) {
			t.Errorf("go test -short output lacks %q:\n%s", want, out)
		}
	}
}

// TestShortChild is TestShortSamples's child.
func TestShortChild(t *testing.T) {
	isChild(t)
	var ran []int
	s := unitsSuite(&ran, func(int) bool { return false })
	s.Methods = append(s.Methods, equiv.Method{Name: "whole", Long: true, Func: func(r *equiv.Run) error { r.Count(1); return nil }})
	equiv.Test(t, s)
}

// TestThin: under WithSample(4) a long loop thinned with Run.Thin runs a
// quarter of its items, by another residue of the seed than the units',
// so that the 16 seeds 0..15 run every item of the loop once per unit
// residue; without WithSample every item runs, and the note says nothing.
func TestThin(t *testing.T) {
	thinned := func(ran *[]int) equiv.Suite {
		return equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "loop", Split: true, Func: func(r *equiv.Run) error {
			if !r.Mine(0) {
				return nil
			}
			for j := range 8 {
				if r.Thin(j) {
					*ran = append(*ran, j)
					r.Count(1)
				}
			}
			return nil
		}}}}
	}
	times := map[int]int{}
	for seed := uint64(0); seed < 16; seed++ {
		var ran []int
		rs, err := results(thinned(&ran), equiv.WithSeed(seed|1<<12), equiv.WithSample(4)) // 1<<12: never seed 0
		want := []int{int(seed / 4 % 4), int(seed/4%4) + 4}
		if seed%4 != 0 {
			want = nil // unit 0 is not in this seed's sample
		}
		if !slices.Equal(ran, want) {
			t.Errorf("seed %d: ran items %v (%v), want %v", seed, ran, err, want)
		}
		if want != nil && (len(rs) != 1 || !strings.Contains(strings.Join(rs[0].Narrowed, ";"), "2 of the 8 items of its longest loops")) {
			t.Errorf("seed %d: narrowed %q, want the thinned items counted", seed, rs[0].Narrowed)
		}
		for _, j := range ran {
			times[j]++
		}
	}
	for j := range 8 {
		if times[j] != 1 {
			t.Errorf("item %d ran %d times over 16 seeds, want once", j, times[j])
		}
	}
	var ran []int
	if rs, err := results(thinned(&ran), equiv.WithSeed(5)); err != nil || len(ran) != 8 || rs[0].Narrowed != nil {
		t.Errorf("without WithSample: ran %v (%v), narrowed %q; want all 8 and no note", ran, err, rs[0].Narrowed)
	}
}
