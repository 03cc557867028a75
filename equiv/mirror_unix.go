//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || illumos

package equiv

import (
	"fmt"

	"golang.org/x/sys/unix"
)

const readOnlySkip = ""

// mapTwice maps one shared memory object of at least n bytes twice, read-write
// and read-only.
func mapTwice(n int) (rw, ro []byte, free func(), err error) {
	page := unix.Getpagesize()
	size := max((n+page-1)/page*page, page)
	fd, err := anonFile(size)
	if err != nil {
		return nil, nil, nil, err
	}
	defer unix.Close(fd)
	rw, err = unix.Mmap(fd, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("mmap: %w", err)
	}
	ro, err = unix.Mmap(fd, 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		unix.Munmap(rw)
		return nil, nil, nil, fmt.Errorf("mmap: %w", err)
	}
	return rw, ro, func() { unix.Munmap(ro); unix.Munmap(rw) }, nil
}
