// Package atomicfile writes files so that a reader sees either the old
// content or the whole new content, never a part, and never writes through
// a symbolic link planted at the destination.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// TempPrefix starts the name of every temporary file Write creates.
const TempPrefix = ".atomicfile-"

// testHook, if set (SetTestHook), is called at each step of Write, so that
// a test can stop the process there.
var testHook func(step string)

// SetTestHook makes Write call f at each of its steps ("created",
// "half-written", "written", "synced", "renamed"). For fault-injection
// tests only.
func SetTestHook(f func(step string)) { testHook = f }

func step(s string) {
	if testHook != nil {
		testHook(s)
	}
}

// Write writes data to path: to a new temporary file in tmpDir (the
// directory of path if tmpDir is ""; it must be on the same file system),
// synced, then renamed over path. A rename replaces a symbolic link at path
// rather than following it. A process killed part way leaves path as it
// was (absent, or its old content) and at most a stray temporary file
// named TempPrefix* in tmpDir, which a caller that must keep a directory
// free of partial files (such as testdata/fuzz/FuzzX, which "go test"
// reads file by file) avoids by choosing tmpDir elsewhere.
func Write(tmpDir, path string, data []byte, perm os.FileMode) (err error) {
	if tmpDir == "" {
		tmpDir = filepath.Dir(path)
	}
	f, err := os.CreateTemp(tmpDir, TempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	step("created")
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	half := len(data) / 2
	if _, err = f.Write(data[:half]); err != nil {
		return err
	}
	step("half-written")
	if _, err = f.Write(data[half:]); err != nil {
		return err
	}
	step("written")
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	step("synced")
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("rename: %w", err)
	}
	syncDir(filepath.Dir(path))
	step("renamed")
	return nil
}

// syncDir makes a rename durable where the system allows opening a
// directory for it; it is best effort.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
