//go:build windows

package equiv

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

const readOnlySkip = ""

// mapTwice maps one pagefile-backed section of at least n bytes twice,
// read-write and read-only.
func mapTwice(n int) (rw, ro []byte, free func(), err error) {
	const granularity = 64 << 10 // views start at multiples of it
	size := max((n+granularity-1)/granularity*granularity, granularity)
	h, err := windows.CreateFileMapping(windows.InvalidHandle, nil, windows.PAGE_READWRITE, uint32(uint64(size)>>32), uint32(size), nil)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("CreateFileMapping: %w", err)
	}
	defer windows.CloseHandle(h)
	w, err := windows.MapViewOfFile(h, windows.FILE_MAP_WRITE, 0, 0, uintptr(size))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("MapViewOfFile: %w", err)
	}
	r, err := windows.MapViewOfFile(h, windows.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		windows.UnmapViewOfFile(w)
		return nil, nil, nil, fmt.Errorf("MapViewOfFile: %w", err)
	}
	// The views are not Go memory: the garbage collector never moves or
	// frees them, so a slice over one is safe until free.
	rw = unsafe.Slice(*(**byte)(unsafe.Pointer(&w)), size)
	ro = unsafe.Slice(*(**byte)(unsafe.Pointer(&r)), size)
	return rw, ro, func() { windows.UnmapViewOfFile(r); windows.UnmapViewOfFile(w) }, nil
}
