// Package inlinecheck reads the compiler's inlining report for the package
// in the current directory, so that a test can fail when a function whose
// speed depends on being inlined stops being inlinable: such a change passes
// every equivalence test and costs a call per use.
package inlinecheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// Report returns the output of go build -gcflags=-m for the package in the
// current directory (a test's package). It skips the test under -short
// (the qemu, wasip1 and 386 runs) and where no go command sits beside the
// test's GOROOT.
func Report(t *testing.T) []byte {
	t.Helper()
	return report(t, "build", "-gcflags=-m", ".")
}

// TestReport is Report for the package's test binary (go test -c), which
// also compiles its _test.go files.
func TestReport(t *testing.T) []byte {
	t.Helper()
	return report(t, "test", "-c", "-o", os.DevNull, "-gcflags=-m", ".")
}

// report runs the go command with args, as Report describes.
func report(t *testing.T, args ...string) []byte {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the compiler; -short")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(gobin); err != nil {
		t.Skipf("no go command beside this test's GOROOT (%v)", err)
	}
	out, err := exec.Command(gobin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// CanInline reports whether report says fn, declared in a file whose base
// name matches the regular expression file, can be inlined. go prints the
// file's path relative to where it ran, or to the module root when it
// replays a cached build, so only the base name is matched.
func CanInline(report []byte, file, fn string) bool {
	re := regexp.MustCompile(`(?m)(^|/)(` + file + `):\d+:\d+: can inline ` + regexp.QuoteMeta(fn) + `$`)
	return re.Match(report)
}

// Inlined counts the calls to fn that report says were inlined in files
// whose base name matches file.
func Inlined(report []byte, file, fn string) int {
	re := regexp.MustCompile(`(?m)(^|/)(` + file + `):\d+:\d+: inlining call to ` + regexp.QuoteMeta(fn) + `$`)
	return len(re.FindAll(report, -1))
}
