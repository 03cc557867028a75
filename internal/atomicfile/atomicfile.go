// Package atomicfile writes files so that a reader sees either the old
// content or the whole new content, never a part, and never writes through
// a symbolic link planted at the destination.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes data to path: to a new temporary file in the same
// directory, synced, then renamed over path (rename replaces a link at path
// rather than following it). A process killed part way leaves at most a
// stray temporary file named .path.tmp*, never a partial path.
func Write(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("rename: %w", err)
	}
	return nil
}
