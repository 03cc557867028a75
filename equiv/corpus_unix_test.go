//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || illumos

package equiv_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/equivcheck/equivcheck/equiv"
)

// TestLoadCorpusRefusesWhatIsNotAPlainFile: a named pipe (which would block
// the gate), a link to /dev/zero (which would never end), a link leaving the
// corpus, and a file over the size limit are each refused, quickly, with an
// error naming the file.
func TestLoadCorpusRefusesWhatIsNotAPlainFile(t *testing.T) {
	good := equiv.MarshalFuzzInput([]byte("x"), uint16(1))
	for _, tc := range []struct {
		name string
		make func(dir, path string) error
		want string
	}{
		{"fifo", func(_, p string) error { return unix.Mkfifo(p, 0o644) }, "not a regular file"},
		{"zero", func(_, p string) error { return os.Symlink("/dev/zero", p) }, "not a regular file"},
		{"outside", func(dir, p string) error {
			out := filepath.Join(filepath.Dir(dir), "outside")
			if err := os.WriteFile(out, good, 0o644); err != nil {
				return err
			}
			return os.Symlink(out, p)
		}, "not a regular file"},
		{"big", func(_, p string) error {
			return os.WriteFile(p, append(good, make([]byte, equiv.MaxCorpusFile)...), 0o644)
		}, "larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "root")
			dir := filepath.Join(root, "toy")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "good"), good, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := tc.make(root, filepath.Join(dir, "bad")); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := equiv.LoadCorpus(target, os.DirFS(root), nil)
				done <- err
			}()
			select {
			case err := <-done:
				var ce *equiv.CorpusError
				if !errors.As(err, &ce) || ce.File != "toy/bad" || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("LoadCorpus = %v, want a CorpusError naming toy/bad: %s", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("LoadCorpus hung")
			}
		})
	}
}
