package equiv_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
)

// dirFiles returns the files under dir, by path relative to it, with
// their contents.
func dirFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			files[rel] = string(data)
		}
		return nil
	})
	return files
}

// TestCounterexampleFilesOnce: a failing Test writes one counterexample
// file per (fuzz target, function), the shortest, although each of its
// methods finds the bug (it wrote one per method, four here); rerunning
// it with other seeds, which find other inputs, writes nothing new while
// the file there still fails; a new bug (another function) gets its file.
func TestCounterexampleFilesOnce(t *testing.T) {
	canExec(t)
	dir := t.TempDir()
	run := func(seed, bug string) string {
		out, err := child("TestFailFilesChild", []string{equiv.EnvFailDir + "=" + dir, equiv.EnvSeed + "=" + seed, "EQUIV_TEST_BUG=" + bug})
		if err == nil || !strings.Contains(out, "--- FAIL: TestFailFilesChild/") {
			t.Fatalf("seed %s: the child did not fail (%v):\n%s", seed, err, out)
		}
		return out
	}
	out := run("1", "Reverse")
	first := dirFiles(t, dir)
	if len(first) != 1 || !strings.Contains(out, "toy/properties: Reverse") || !strings.Contains(out, "toy/corpus: Reverse") {
		t.Fatalf("a failing Test wrote %d files, want 1: %v\n%s", len(first), slices.Collect(mapKeys(first)), out)
	}
	for f, data := range first {
		if !strings.HasPrefix(f, "FuzzToy"+string(filepath.Separator)) || !strings.Contains(data, `[]byte("\x01\x00")`) {
			t.Errorf("%s = %q, want FuzzToy's shortest failing input, 2 bytes", f, data)
		}
	}
	for _, seed := range []string{"2", "3", "12345"} {
		out = run(seed, "Reverse")
		if got := dirFiles(t, dir); !maps(got, first) {
			t.Fatalf("rerun with seed %s changed the directory: %v, was %v\n%s", seed, slices.Collect(mapKeys(got)), slices.Collect(mapKeys(first)), out)
		}
		if !strings.Contains(out, "already there, still fails it") {
			t.Errorf("seed %s: the log does not say the file there still fails:\n%s", seed, out)
		}
	}
	run("1", "Reverse4")
	if got := dirFiles(t, dir); len(got) != 2 {
		t.Errorf("a bug in another function: %d files, want 2: %v", len(got), slices.Collect(mapKeys(got)))
	}
}

// TestFailFilesChild is TestCounterexampleFilesOnce's child: the toy
// suite over an implementation that leaves every input of two bytes or
// more as it is, reported as the function Reverse (EQUIV_TEST_BUG=Reverse),
// or every input of four bytes or more, reported as Reverse4.
func TestFailFilesChild(t *testing.T) {
	isChild(t)
	fn := os.Getenv("EQUIV_TEST_BUG")
	from := map[string]int{"Reverse": 2, "Reverse4": 4}[fn]
	s := toySuite(func(b []byte) []byte {
		if len(b) >= from {
			return append([]byte(nil), b...)
		}
		return reverse(b)
	})
	for i, m := range s.Methods {
		f := m.Func
		s.Methods[i].Func = func(r *equiv.Run) error { return renameFunc(f(r), fn) }
	}
	check := s.Targets[0].Check
	s.Targets[0].Check = func(c *equiv.Config, v []any) (*equiv.Counterexample, int) {
		ce, n := check(c, v)
		if ce != nil {
			ce.Func = fn
		}
		return ce, n
	}
	equiv.Test(t, s)
}

// renameFunc sets the Func of every Counterexample in err to fn.
func renameFunc(err error, fn string) error {
	for _, ce := range equiv.Counterexamples(err) {
		ce.Func = fn
	}
	return err
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
