package checksum_test

import (
	"testing"

	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/internal/registry"
)

// TestConformance runs the conformance suite (quick level) on every variant,
// each through its own symbols, and on the dispatching API.
func TestConformance(t *testing.T) {
	for _, v := range registry.Checksum() {
		t.Run(v.Name, func(t *testing.T) {
			if !v.Available {
				t.Skipf("variant %s is not available on this CPU or build", v.Name)
			}
			checksumtest.Test(t, v.Impl)
		})
	}
}
