package quic_test

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
)

// TestInlined checks with the compiler's own report (go build
// -gcflags=-m) that the functions whose speed depends on being inlined
// into the caller still are: ParseVarint, and the exported wrappers around
// the small generic functions. A change that pushes one over the inliner's
// budget passes every equivalence test and costs a call per varint; this
// is the test that fails.
func TestInlined(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler; -short")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(gobin); err != nil {
		t.Skipf("no go command beside this test's GOROOT (%v)", err)
	}
	cmd := exec.Command(gobin, "build", "-gcflags=-m", ".")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, fn := range []string{"ParseVarint", "AppendVarint", "VarintLen", "DecodePacketNumber", "ReadVarint"} {
		// go prints the file's path relative to where it was run, or to the
		// module root when it replays a cached build.
		re := regexp.MustCompile(`(?m)(^|/)(quic|varintio)\.go:\d+:\d+: can inline ` + fn + `$`)
		if !re.Match(out) {
			t.Errorf("%s is no longer inlinable (go build -gcflags=-m=2 . gives its cost)", fn)
		}
	}
	// The header parser's two varint reads inline the body.
	if n := len(regexp.MustCompile(`(?m)(^|/)quic_generic\.go:\d+:\d+: inlining call to ParseVarint$`).FindAll(out, -1)); n < 2 {
		t.Errorf("ParseVarint is inlined at %d call sites in quic_generic.go, want the header parser's 2 at least", n)
	}
}
