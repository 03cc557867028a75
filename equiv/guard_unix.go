//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || illumos

package equiv

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// GuardSkip returns "" where guard pages are implemented (the Unix systems
// above and Windows), else the reason the guard method is skipped.
func GuardSkip() string { return "" }

// newGuarded maps a region of at least n accessible bytes between two
// PROT_NONE pages.
func newGuarded(n int) (*Guarded, error) {
	page := unix.Getpagesize()
	dataLen := max((n+page-1)/page*page, page)
	mem, err := unix.Mmap(-1, 0, dataLen+2*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("mmap: %w", err)
	}
	for _, guard := range [][]byte{mem[:page], mem[page+dataLen:]} {
		if err := unix.Mprotect(guard, unix.PROT_NONE); err != nil {
			unix.Munmap(mem)
			return nil, fmt.Errorf("mprotect: %w", err)
		}
	}
	return &Guarded{mem: mem, data: mem[page : page+dataLen : page+dataLen], free: func() { unix.Munmap(mem) }}, nil
}
