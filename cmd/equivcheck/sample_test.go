package main

import (
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/registry"
)

// TestSamplesAddUpOnTheRegistry: under go test -short each suite's
// exhaustive method runs a sample (equiv.WithSample), and really runs
// less: the samples of the seeds 1..4 (one per residue mod 4) compare
// between them what the whole method compares at seed 1 (the baseline's
// row), each less than the whole, and each says it is a sample. (A
// sample is a quarter of the units, not of the inputs or of the time: the
// checksum's four compare 3, 3, 83 and 11% of the inputs, the one holding
// Update's 16.8M triples the 83%; -v logs each.)
func TestSamplesAddUpOnTheRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quick exhaustive methods")
	}
	want := readRows(t, baseline)
	for _, v := range registry.Gate() {
		if v.Name != "dispatch" {
			continue
		}
		key := v.Suite.Pair + "/dispatch/exhaustive"
		var sum int64
		for seed := uint64(1); seed <= equiv.ShortSample; seed++ {
			var res equiv.Result
			err := equiv.Check(v.Suite, equiv.WithSeed(seed), equiv.WithSample(equiv.ShortSample),
				equiv.WithMethods(func(m string) bool { return m == equiv.MethodExhaustive }),
				equiv.WithReport(func(r equiv.Result) {
					if r.Method == equiv.MethodExhaustive {
						res = r
					}
				}))
			if err != nil || res.Checked == 0 || res.Checked >= want[key] || !strings.Contains(strings.Join(res.Narrowed, ";"), "sampled") {
				t.Errorf("%s, seed %d, sampled: checked %d of %d, narrowed %q, err %v", key, seed, res.Checked, want[key], res.Narrowed, err)
			}
			t.Logf("%s seed %d: %d of %d (%.0f%%) in %v", key, seed, res.Checked, want[key], 100*float64(res.Checked)/float64(want[key]), res.Elapsed)
			sum += res.Checked
		}
		if sum != want[key] {
			t.Errorf("%s: the four samples compared %d, the whole method %d", key, sum, want[key])
		}
	}
}
