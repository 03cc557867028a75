package equiv

import "unsafe"

// addrOf returns the address of b's first element, to align test buffers.
func addrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
