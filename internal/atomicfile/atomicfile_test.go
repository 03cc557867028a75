package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/equivcheck/equivcheck/internal/atomicfile"
)

// TestReplacesLinkNotTarget: a symbolic link at the destination is
// replaced by the new file; the file it pointed to is untouched.
func TestReplacesLinkNotTarget(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("precious"), 0o644)
	dst := filepath.Join(dir, "out")
	if err := os.Symlink(victim, dst); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := atomicfile.Write("", dst, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious" {
		t.Errorf("target overwritten: %q", data)
	}
	if st, err := os.Lstat(dst); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("destination is not a regular file: %v", err)
	}
	if data, _ := os.ReadFile(dst); string(data) != "new" {
		t.Errorf("destination holds %q", data)
	}
}

// TestTempElsewhere: with tmpDir given, no temporary file is ever made in
// the destination's directory, and none is left behind.
func TestTempElsewhere(t *testing.T) {
	tmp, dst := t.TempDir(), t.TempDir()
	var seen []string
	atomicfile.SetTestHook(func(step string) {
		entries, _ := os.ReadDir(dst)
		for _, e := range entries {
			seen = append(seen, step+":"+e.Name())
		}
	})
	defer atomicfile.SetTestHook(nil)
	if err := atomicfile.Write(tmp, filepath.Join(dst, "f"), []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != "renamed:f" {
		t.Errorf("the destination directory held %v during the write", seen)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	if st, _ := os.Stat(filepath.Join(dst, "f")); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
}
