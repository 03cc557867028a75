package quic_test

import (
	"testing"

	"github.com/equivcheck/equivcheck/internal/inlinecheck"
)

// TestInlined checks with the compiler's own report (go build
// -gcflags=-m) that the functions whose speed depends on being inlined
// into the caller still are: ParseVarint, and the exported wrappers around
// the small generic functions. A change that pushes one over the inliner's
// budget passes every equivalence test and costs a call per varint; this
// is the test that fails.
func TestInlined(t *testing.T) {
	out := inlinecheck.Report(t)
	for _, fn := range []string{"ParseVarint", "AppendVarint", "VarintLen", "DecodePacketNumber", "ReadVarint"} {
		if !inlinecheck.CanInline(out, `quic\.go|varintio\.go`, fn) {
			t.Errorf("%s is no longer inlinable (go build -gcflags=-m=2 . gives its cost)", fn)
		}
	}
	// The header parser's two varint reads inline the body.
	if n := inlinecheck.Inlined(out, `quic_generic\.go`, "ParseVarint"); n < 2 {
		t.Errorf("ParseVarint is inlined at %d call sites in quic_generic.go, want the header parser's 2 at least", n)
	}
}
