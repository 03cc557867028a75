package gate_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/gate"
	"github.com/equivcheck/equivcheck/internal/atomicfile"
)

// The fault-injection test runs the gate in a child process (this test
// binary, running TestFaultChild) that stops dead (os.Exit, no deferred
// cleanup) at a chosen step of a chosen file write, then checks what is
// on disk and that the next run's verdict is unchanged.

const (
	envCrashAt = "EQUIVCHECK_TEST_CRASH_AT" // "write:step", such as "2:half-written"
	envDir     = "EQUIVCHECK_TEST_DIR"
)

var steps = []string{"created", "half-written", "written", "synced", "renamed"}

// faultVariants fail in every method and so write a counterexample for each
// failing row, plus the JSON report.
var faultVariants = []gate.Variant{{Name: "broken", Suite: checksumtest.NewSuite(checksumtest.Impl{Sum: dropOdd})}}

func faultArgs(dir string) []string {
	return []string{"-seed", "5", "-run", "vectors|corpus", "-fuzzdir", filepath.Join(dir, "fuzz"), "-json", filepath.Join(dir, "report.json")}
}

// TestFaultChild is the child: it does nothing unless run by
// TestFaultInjection.
func TestFaultChild(t *testing.T) {
	at := os.Getenv(envCrashAt)
	if at == "" {
		t.Skip("run by TestFaultInjection")
	}
	n, step, _ := strings.Cut(at, ":")
	want, _ := strconv.Atoi(n)
	writes := 0
	atomicfile.SetTestHook(func(s string) {
		if s == "created" {
			writes++
		}
		if writes == want && s == step {
			os.Exit(3) // killed: nothing after this point happens
		}
	})
	var discard strings.Builder
	gate.Run("equivcheck", faultArgs(os.Getenv(envDir)), &discard, &discard, faultVariants)
	os.Exit(4) // the crash point was never reached
}

func TestFaultInjection(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the gate in 100 child processes")
	}
	// A clean run first: its verdict and files are what every later run
	// must reproduce.
	ref := t.TempDir()
	os.MkdirAll(filepath.Join(ref, "fuzz"), 0o755)
	code, _, _ := runGate(t, faultVariants, faultArgs(ref)...)
	wantFiles := listFiles(t, ref)
	if code != 1 || len(wantFiles) < 2 {
		t.Fatalf("clean run: exit %d, files %v", code, wantFiles)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	for i := range 100 {
		if i%10 == 0 { // start afresh now and then, else overwrite complete files
			dir = t.TempDir()
			os.MkdirAll(filepath.Join(dir, "fuzz"), 0o755)
		}
		at := fmt.Sprintf("%d:%s", 1+rng.IntN(len(wantFiles)), steps[rng.IntN(len(steps))])
		cmd := exec.Command(os.Args[0], "-test.run=^TestFaultChild$")
		cmd.Env = append(os.Environ(), envCrashAt+"="+at, envDir+"="+dir)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
			t.Fatalf("crash at %s: child ended with %v (want exit 3):\n%s", at, err, out)
		}
		checkComplete(t, dir, at)
		code, stdout, _ := runGate(t, faultVariants, faultArgs(dir)...)
		if code != 1 || !strings.Contains(stdout, "FAIL checksum/broken/vectors") {
			t.Fatalf("after a crash at %s: exit %d:\n%s", at, code, stdout)
		}
		if got := listFiles(t, dir); fmt.Sprint(got) != fmt.Sprint(wantFiles) {
			t.Fatalf("after a crash at %s and a clean run: files %v, want %v", at, got, wantFiles)
		}
	}
}

// checkComplete checks that every file the gate writes is absent or whole:
// each regression input parses with its target's signature, the report is
// valid JSON, and no partial file stands where "go test" reads inputs.
func checkComplete(t *testing.T, dir, at string) {
	t.Helper()
	if _, err := equiv.LoadCorpus(equiv.FuzzTarget{Name: "FuzzChecksum", Args: []string{"[]byte", "uint16", "[]byte"}},
		nil, os.DirFS(filepath.Join(dir, "fuzz"))); err != nil {
		t.Fatalf("crash at %s left a damaged regression input: %v", at, err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "fuzz", "FuzzChecksum"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Fatalf("crash at %s left %s where go test reads inputs", at, e.Name())
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "report.json")); err == nil && !json.Valid(data) {
		t.Fatalf("crash at %s left a partial report: %q", at, data)
	}
}

// listFiles lists the files under dir, temporary files left out.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), atomicfile.TempPrefix) {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, rel)
		}
		return nil
	})
	return files
}
