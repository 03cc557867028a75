//go:build linux

package equiv

import (
	"fmt"
	"syscall"
)

const guardSupported = true

// guarded is a read-write region of memory between two unmapped (PROT_NONE)
// pages, so that an access just before or just after it faults. With
// runtime/debug.SetPanicOnFault the fault becomes a recoverable panic (see
// withFaultPanics), which the suites report as a counterexample.
type guarded struct {
	mem  []byte // the whole mapping, guards included
	data []byte // the accessible middle
}

// newGuarded maps a region of at least n accessible bytes between guards.
func newGuarded(n int) (*guarded, error) {
	page := syscall.Getpagesize()
	dataLen := (n + page - 1) / page * page
	if dataLen == 0 {
		dataLen = page
	}
	mem, err := syscall.Mmap(-1, 0, dataLen+2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("mmap: %w", err)
	}
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		syscall.Munmap(mem)
		return nil, fmt.Errorf("mprotect: %w", err)
	}
	if err := syscall.Mprotect(mem[page+dataLen:], syscall.PROT_NONE); err != nil {
		syscall.Munmap(mem)
		return nil, fmt.Errorf("mprotect: %w", err)
	}
	return &guarded{mem: mem, data: mem[page : page+dataLen : page+dataLen]}, nil
}

// tail returns the last n accessible bytes: the byte after them is unmapped.
func (g *guarded) tail(n int) []byte { return g.data[len(g.data)-n:] }

// head returns the first n accessible bytes: the byte before them is unmapped.
func (g *guarded) head(n int) []byte { return g.data[:n:n] }

func (g *guarded) free() { syscall.Munmap(g.mem) }
