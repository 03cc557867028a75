package websocket_test

import (
	"testing"

	"github.com/equivcheck/equivcheck/internal/inlinecheck"
)

// TestInlined checks with the compiler's report that Mask and MaskCopy can
// be inlined: a caller then makes one direct call into the assembly, where
// a Go wrapper in between cost 2 ns per call at 1 to 128 octets
// (BenchmarkSweepMaskCopy, bench/sweep_test.go). MaskCopy is at the
// inliner's budget (cost 80 of 80): a change that adds to it fails here.
func TestInlined(t *testing.T) {
	out := inlinecheck.Report(t)
	for _, fn := range []string{"Mask", "MaskCopy"} {
		if !inlinecheck.CanInline(out, `websocket\.go`, fn) {
			t.Errorf("%s is no longer inlinable (go build -gcflags=-m=2 . gives its cost)", fn)
		}
	}
}
