//go:build unix

package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/gate"
)

func TestInterrupt(t *testing.T) {
	js, ju := filepath.Join(t.TempDir(), "r.json"), filepath.Join(t.TempDir(), "j.xml")
	self := func() { syscall.Kill(os.Getpid(), syscall.SIGINT) }
	code, stdout, _ := runGate(t, []gate.Variant{endless(self)}, "-json", js, "-junit", ju)
	if code != 130 || !strings.Contains(stdout, "stopped by signal") {
		t.Fatalf("exit %d, want 130:\n%s", code, stdout)
	}
	checkStopped(t, js, "signal", 130)
	checkRedJUnit(t, ju)
}

// TestInterruptWhileStuck: SIGINT stops a run whose call is stuck (the
// call timeout far away) within seconds, exit 130, with the partial table
// and both reports.
func TestInterruptWhileStuck(t *testing.T) {
	dir := t.TempDir()
	js, ju := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml")
	var once sync.Once
	stuck := gate.Variant{Name: "stuck", Suite: checksumtest.NewSuite(checksumtest.Impl{Sum: func(b []byte, initial uint16) uint16 {
		if len(b) == 2 {
			once.Do(func() { syscall.Kill(os.Getpid(), syscall.SIGINT) })
		}
		return hangOn2(b, initial)
	}})}
	start := time.Now()
	code, stdout, stderr := runGate(t, []gate.Variant{stuck}, "-seed", "1", "-run", "exhaustive|guard", "-calltimeout", "1h", "-json", js, "-junit", ju)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("SIGINT with a stuck call took %v", took)
	}
	if code != 130 || !strings.Contains(stdout, "stopped by signal") {
		t.Fatalf("exit %d, want 130:\n%s%s", code, stdout, stderr)
	}
	if rep := readHungReport(t, js); rep.Stopped != "signal" || rep.NotRun != 2 || !strings.Contains(rep.Rows[0].Reason, "in a call still running") {
		t.Errorf("report: stopped %q, not_run %d, %+v; want signal, 2 and the stuck method abandoned", rep.Stopped, rep.NotRun, rep.Rows[0])
	}
	if data, err := os.ReadFile(ju); err != nil || !strings.Contains(string(data), "notrun") {
		t.Errorf("JUnit report of the interrupted run: %v\n%s", err, data)
	}
}
