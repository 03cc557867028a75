package equiv_test

import (
	"bytes"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
)

// TestShrinkPrefixSuffix: the bisections find the shortest failing prefix
// and suffix of an input whose failure needs one octet at a known place
// and a length.
func TestShrinkPrefixSuffix(t *testing.T) {
	d := make([]byte, 1<<20)
	d[300000] = 1
	fails := func(b []byte) bool { return bytes.IndexByte(b, 1) >= 0 && len(b) >= 1000 }
	p := equiv.ShrinkPrefix(d, fails)
	if len(p) != 300001 {
		t.Errorf("ShrinkPrefix: %d octets, want 300001", len(p))
	}
	s := equiv.ShrinkSuffix(p, fails)
	if len(s) != 1000 || s[len(s)-1] != 1 {
		t.Errorf("ShrinkSuffix: %d octets ending in %d, want 1000 ending in the 1", len(s), s[len(s)-1])
	}
}
