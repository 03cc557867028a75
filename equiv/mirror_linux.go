package equiv

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// anonFile returns a file descriptor of an anonymous memory object of size
// bytes (memfd_create), which the caller closes.
func anonFile(size int) (int, error) {
	fd, err := unix.MemfdCreate("equiv-input", unix.MFD_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("memfd_create: %w", err)
	}
	if err := unix.Ftruncate(fd, int64(size)); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("ftruncate: %w", err)
	}
	return fd, nil
}
