//go:build unix

package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/equivcheck/equivcheck/equiv/gate"
)

func TestInterrupt(t *testing.T) {
	js, ju := filepath.Join(t.TempDir(), "r.json"), filepath.Join(t.TempDir(), "j.xml")
	self := func() { syscall.Kill(os.Getpid(), syscall.SIGINT) }
	code, stdout, _ := runGate(t, []gate.Variant{endless(self)}, "-json", js, "-junit", ju)
	if code != 130 || !strings.Contains(stdout, "stopped by signal") {
		t.Fatalf("exit %d, want 130:\n%s", code, stdout)
	}
	checkStopped(t, js, "signal")
	if data, err := os.ReadFile(ju); err != nil || !strings.Contains(string(data), "notrun") {
		t.Errorf("JUnit report of the interrupted run: %v\n%s", err, data)
	}
}
