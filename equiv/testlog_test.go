package equiv_test

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
)

// envChild names the test a child process (this test binary) runs for
// a parent test that reads what equiv.Test logs.
const envChild = "EQUIV_TEST_CHILD"

// runChild runs this test binary's test name with -test.v and args, with
// env set (EQUIV_FAILDIR=off unless env sets it), and returns its output;
// it fails t if the child fails.
func runChild(t *testing.T, name string, env []string, args ...string) string {
	t.Helper()
	canExec(t)
	out, err := child(name, env, args...)
	if err != nil {
		t.Fatalf("child %s: %v\n%s", name, err, out)
	}
	return out
}

// canExec skips t where a test cannot start a process (wasip1, js), or
// where the kernel cannot run this binary: under qemu-user with no
// binfmt_misc entry for its architecture (go test -exec qemu-aarch64-static
// in a container), the binary runs but its child fails with ENOEXEC.
func canExec(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "wasip1" || runtime.GOOS == "js" {
		t.Skip("no processes on " + runtime.GOOS + ": the test runs this binary again as a child")
	}
	if err := selfExec(); isENOEXEC(err) {
		t.Skip("the kernel cannot run this binary (" + runtime.GOARCH + " under an emulator?): the test runs it again as a child")
	}
}

// selfExec runs this test binary once, running no test, and returns its
// error.
var selfExec = sync.OnceValue(func() error {
	return exec.Command(os.Args[0], "-test.run=^$").Run()
})

// child runs this test binary's test name as runChild does and returns
// its output and error.
func child(name string, env []string, args ...string) (string, error) {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^" + name + "$", "-test.v"}, args...)...)
	cmd.Env = append(os.Environ(), append([]string{envChild + "=" + name, equiv.EnvFailDir + "=off"}, env...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// isChild skips t unless it is the child a parent test runs.
func isChild(t testing.TB) {
	t.Helper()
	if os.Getenv(envChild) != t.Name() {
		t.Skip("run by a parent test as a child process")
	}
}

// TestUncheckedOnce: the functions the Impl leaves out are logged on one
// line per suite, not once per method (a varint-only QUIC Impl logged 45
// lines) nor once per function (issue 32).
func TestUncheckedOnce(t *testing.T) {
	out := runChild(t, "TestUncheckedChild", nil)
	if n := strings.Count(out, "not checked: F, G (nil in the Impl)"); n != 1 || strings.Count(out, "not checked") != 1 {
		t.Errorf("the unchecked functions logged %d times, want on one line:\n%s", n, out)
	}
}

// TestUncheckedChild is TestUncheckedOnce's child: three methods that
// leave F out, one of which leaves G out as well.
func TestUncheckedChild(t *testing.T) {
	isChild(t)
	count := func(r *equiv.Run) error { r.Count(1); return nil }
	f, g := "F: Impl.F is nil", "G: Impl.G is nil"
	equiv.Test(t, equiv.Suite{Pair: "toy", Unchecked: []string{f}, Methods: []equiv.Method{
		{Name: "a", Func: count}, {Name: "b", Func: count, Unchecked: []string{g}}, {Name: "c", Func: count, Unchecked: []string{f}},
	}})
}
