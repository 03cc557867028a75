package utf8valid_test

import (
	"testing"

	"github.com/equivcheck/equivcheck/equiv/utf8validtest"
	"github.com/equivcheck/equivcheck/internal/registry"
)

// TestConformance runs the conformance suite (quick level) on every variant,
// each through its own symbols, and on the dispatching API.
func TestConformance(t *testing.T) {
	for _, v := range registry.UTF8() {
		t.Run(v.Name, func(t *testing.T) {
			if !v.Available {
				t.Skipf("variant %s is not available on this CPU or build", v.Name)
			}
			utf8validtest.Test(t, v.Impl)
		})
	}
}
