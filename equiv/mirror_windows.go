//go:build windows

package equiv

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

const readOnlySkip = ""

// edgeSkip says why the flush placements (Edge) are not made here.
const edgeSkip = "framed views need mmap at a fixed address: on Windows inputs are placed between canaries only"

// mapViews maps one pagefile-backed section of at least n bytes twice,
// read-write and read-only, without frames or edge views.
func mapViews(n int) (*viewMaps, error) {
	const granularity = 64 << 10 // views start at multiples of it
	size := max((n+granularity-1)/granularity*granularity, granularity)
	h, err := windows.CreateFileMapping(windows.InvalidHandle, nil, windows.PAGE_READWRITE, uint32(uint64(size)>>32), uint32(size), nil)
	if err != nil {
		return nil, fmt.Errorf("CreateFileMapping: %w", err)
	}
	defer windows.CloseHandle(h)
	w, err := windows.MapViewOfFile(h, windows.FILE_MAP_WRITE, 0, 0, uintptr(size))
	if err != nil {
		return nil, fmt.Errorf("MapViewOfFile: %w", err)
	}
	r, err := windows.MapViewOfFile(h, windows.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		windows.UnmapViewOfFile(w)
		return nil, fmt.Errorf("MapViewOfFile: %w", err)
	}
	// The views are not Go memory: the garbage collector never moves or
	// frees them, so a slice over one is safe until free.
	v := &viewMaps{size: size}
	v.rwFull = unsafe.Slice(*(**byte)(unsafe.Pointer(&w)), size)
	v.roFull = unsafe.Slice(*(**byte)(unsafe.Pointer(&r)), size)
	v.free = func() { windows.UnmapViewOfFile(r); windows.UnmapViewOfFile(w) }
	return v, nil
}
