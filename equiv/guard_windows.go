//go:build windows

package equiv

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// GuardSkip returns "" where guard pages are implemented (Unix systems and
// Windows), else the reason the guard method is skipped.
func GuardSkip() string { return "" }

// newGuarded reserves and commits a region of at least n accessible bytes
// between two PAGE_NOACCESS pages.
func newGuarded(n int) (*Guarded, error) {
	const page = 4096 // x86 and arm64 Windows
	dataLen := max((n+page-1)/page*page, page)
	size := uintptr(dataLen + 2*page)
	addr, err := windows.VirtualAlloc(0, size, windows.MEM_RESERVE|windows.MEM_COMMIT, windows.PAGE_READWRITE)
	if err != nil {
		return nil, fmt.Errorf("VirtualAlloc: %w", err)
	}
	free := func() { windows.VirtualFree(addr, 0, windows.MEM_RELEASE) }
	var old uint32
	for _, at := range []uintptr{addr, addr + page + uintptr(dataLen)} {
		if err := windows.VirtualProtect(at, page, windows.PAGE_NOACCESS, &old); err != nil {
			free()
			return nil, fmt.Errorf("VirtualProtect: %w", err)
		}
	}
	// The region is not Go memory: the garbage collector never moves or
	// frees it, so a slice over it is safe until free.
	mem := unsafe.Slice(*(**byte)(unsafe.Pointer(&addr)), size)
	return &Guarded{mem: mem, data: mem[page : page+dataLen : page+dataLen], free: free}, nil
}
