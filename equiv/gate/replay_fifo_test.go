//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package gate_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/equiv/gate"
)

// TestReplayHintPipe: a named pipe called x_test.go beside the
// counterexample's testdata is not opened (it would block the gate until
// something wrote to it): the gate finishes, with the copy-it hint.
func TestReplayHintPipe(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "x_test.go"), 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	fuzzdir := filepath.Join(dir, "testdata", "fuzz")
	os.MkdirAll(fuzzdir, 0o755)
	broken := []gate.Variant{brokenVariant}
	done := make(chan string, 1)
	go func() {
		var out bytes.Buffer
		gate.Run("equivcheck", []string{"-run", "vectors", "-seed", "1", "-fuzzdir", fuzzdir}, &out, io.Discard, broken)
		done <- out.String()
	}()
	select {
	case stdout := <-done:
		if !strings.Contains(stdout, "; copy it into testdata/fuzz/<name>/") {
			t.Errorf("want the copy-it hint:\n%s", stdout)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the gate blocked on a named pipe called x_test.go")
	}
}
