//go:build darwin || dragonfly || freebsd || netbsd || openbsd || solaris || illumos

package equiv

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// anonFile returns a file descriptor of a file of size bytes that has no
// name (created in the temporary directory and removed at once), which
// the caller closes.
func anonFile(size int) (int, error) {
	f, err := os.CreateTemp("", "equiv-input-*")
	if err != nil {
		return -1, err
	}
	defer f.Close()
	os.Remove(f.Name())
	if err := f.Truncate(int64(size)); err != nil {
		return -1, err
	}
	fd, err := unix.Dup(int(f.Fd()))
	if err != nil {
		return -1, fmt.Errorf("dup: %w", err)
	}
	return fd, nil
}
