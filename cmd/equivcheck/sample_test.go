package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/registry"
)

// TestSamplesOnTheRegistry: under go test -short each suite's exhaustive
// method runs a sample (equiv.WithSample), and really runs less: the
// samples of the seeds 1..4 (one per residue mod 4) each compare less
// than the whole method at seed 1 (the baseline's row), each says it is a
// sample, and between them they hold every unit of the method once. (A
// sample is a quarter of the units, with the longest loops thinned to a
// quarter as well, not a quarter of the inputs: at seed 2 QUIC's compares
// 75% of them, cheap packet-number windows; -v logs each.)
func TestSamplesOnTheRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quick exhaustive methods")
	}
	want := readRows(t, baseline)
	for _, v := range registry.Gate() {
		if v.Name != "dispatch" {
			continue
		}
		key := v.Suite.Pair + "/dispatch/exhaustive"
		units, total := 0, 0
		for seed := uint64(1); seed <= equiv.ShortSample; seed++ {
			var res equiv.Result
			err := equiv.Check(v.Suite, equiv.WithSeed(seed), equiv.WithSample(equiv.ShortSample),
				equiv.WithMethods(func(m string) bool { return m == equiv.MethodExhaustive }),
				equiv.WithReport(func(r equiv.Result) {
					if r.Method == equiv.MethodExhaustive {
						res = r
					}
				}))
			note := strings.Join(res.Narrowed, ";")
			var k, n int
			if i := strings.Index(note, "sampled"); i >= 0 {
				fmt.Sscanf(note[i:], "sampled (WithSample, go test -short): %d of its %d units", &k, &n)
			}
			if err != nil || res.Checked == 0 || res.Checked >= want[key] || n == 0 {
				t.Errorf("%s, seed %d, sampled: checked %d of %d, narrowed %q, err %v", key, seed, res.Checked, want[key], res.Narrowed, err)
			}
			t.Logf("%s seed %d: %d of %d inputs (%.0f%%) in %v: %s", key, seed, res.Checked, want[key], 100*float64(res.Checked)/float64(want[key]), res.Elapsed, note)
			units, total = units+k, n
		}
		if units != total {
			t.Errorf("%s: the four samples held %d units, the method has %d", key, units, total)
		}
	}
}
