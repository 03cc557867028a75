//go:build linux

package equiv

import (
	"fmt"
	"syscall"
)

// GuardSkip returns "" where guard pages are implemented (Linux), else the
// reason the guard method is skipped.
func GuardSkip() string { return "" }

// newGuarded maps a region of at least n accessible bytes between two
// PROT_NONE pages.
func newGuarded(n int) (*Guarded, error) {
	page := syscall.Getpagesize()
	dataLen := (n + page - 1) / page * page
	if dataLen == 0 {
		dataLen = page
	}
	mem, err := syscall.Mmap(-1, 0, dataLen+2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("mmap: %w", err)
	}
	for _, guard := range [][]byte{mem[:page], mem[page+dataLen:]} {
		if err := syscall.Mprotect(guard, syscall.PROT_NONE); err != nil {
			syscall.Munmap(mem)
			return nil, fmt.Errorf("mprotect: %w", err)
		}
	}
	return &Guarded{mem: mem, data: mem[page : page+dataLen : page+dataLen], free: func() { syscall.Munmap(mem) }}, nil
}
