package checksumtest_test

import (
	"errors"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
)

// TestCatchesKnownBadHelpers pins which method catches each of the
// battery's known-bad helpers (internal/battery), with what
// counterexample, and that each twin passes that method.
func TestCatchesKnownBadHelpers(t *testing.T) {
	bad := []struct {
		name   string
		method string // the method that must catch it
	}{
		{"udp-update-invents-checksum", equiv.MethodVectors},
		{"udp-update-invents-checksum", equiv.MethodCorpus},
		{"udp-update-sends-zero", equiv.MethodVectors},
		{"udp-update-sends-zero", equiv.MethodExhaustive},
		{"udp-update-sends-zero", equiv.MethodProperties},
		{"udp6-update-zero-as-ipv4", equiv.MethodVectors},
		{"udp6-update-zero-as-ipv4", equiv.MethodExhaustive},
		{"udp6-update-zero-as-ipv4", equiv.MethodCorpus},
		{"finish-sends-zero", equiv.MethodVectors},
		{"finish-sends-zero", equiv.MethodExhaustive},
		{"combine-no-swap", equiv.MethodVectors},
		{"combine-no-swap", equiv.MethodProperties},
		{"combine-no-swap", equiv.MethodCorpus},
		{"combine-no-carry", equiv.MethodExhaustive},
		{"combine-negative-odd-offset", equiv.MethodVectors},
		{"combine-negative-odd-offset", equiv.MethodExhaustive},
		{"pseudo-16-bit-length", equiv.MethodVectors},
		{"pseudo-16-bit-length", equiv.MethodExhaustive},
		{"pseudo-16-bit-length", equiv.MethodCorpus},
		{"pseudo-mapped-as-ipv6", equiv.MethodVectors},
		{"pseudo-mapped-as-ipv6", equiv.MethodExhaustive},
		{"pseudo-mapped-as-ipv6", equiv.MethodProperties},
		{"pseudo-any-families", equiv.MethodVectors},
		{"pseudo-any-families", equiv.MethodProperties},
		{"verify-naive-sum", equiv.MethodVectors},
		{"verify-naive-sum", equiv.MethodExhaustive},
		{"verify-ipv6-zero-as-none", equiv.MethodVectors},
		{"verify-ipv6-zero-as-none", equiv.MethodCorpus},
		{"verify-mapped-as-ipv6", equiv.MethodVectors},
		{"verify-mapped-as-ipv6", equiv.MethodExhaustive},
		{"verify-mapped-as-ipv6", equiv.MethodProperties},
		{"verify-mapped-as-ipv6", equiv.MethodCorpus},
		{"verify-over-read", equiv.MethodGuard},
		{"put-panics-short", equiv.MethodVectors},
		{"put-panics-short", equiv.MethodGuard},
		{"put-partial-write", equiv.MethodVectors},
		{"put-partial-write", equiv.MethodProperties},
		{"verify-16-bit-length", equiv.MethodExhaustive},
	}
	for _, tc := range bad {
		t.Run(tc.name+"/"+tc.method, func(t *testing.T) {
			if tc.method == equiv.MethodGuard && equiv.GuardSkip() != "" {
				t.Skip(equiv.GuardSkip())
			}
			impl, twin := knownBad(t, tc.name)
			res, err := results(impl, only(tc.method))
			ces := equiv.Counterexamples(err)
			if !errors.Is(err, equiv.ErrMismatch) {
				t.Fatalf("method %s returned %v, want a mismatch", tc.method, err)
			}
			if len(ces) == 1 {
				t.Logf("caught after %d inputs: %v", res[tc.method].Checked, ces[0])
				checkCaught(t, impl, tc.method, ces[0])
			} else {
				// A law that does not hold is an error, not a counterexample.
				t.Logf("caught after %d inputs: %v", res[tc.method].Checked, err)
			}
			// The twin's whole method is the cost: -short leaves it to the
			// full run (and to the battery's twins in .ci/run).
			if testing.Short() {
				return
			}
			if err := checksumtest.Check(twin, only(tc.method)); err != nil {
				t.Errorf("the bug-free twin fails: %v", err)
			}
		})
	}
}
