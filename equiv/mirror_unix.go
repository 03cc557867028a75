//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || illumos

package equiv

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

const readOnlySkip = ""

// edgeSkip is "" where a mirror has framed views and edge views
// (mapViews), else why the flush placements (Edge) are not made.
const edgeSkip = ""

// mapViews maps one shared memory object of at least n bytes four times,
// each view framed by an unmapped page on each side: read-write,
// read-only, and the two edge views, read-write in one half and read-only
// in the other (edge.go).
func mapViews(n int) (*viewMaps, error) {
	page := unix.Getpagesize()
	size := max((n+2*page-1)/(2*page)*(2*page), 2*page) // two whole halves
	fd, err := anonFile(size)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	v := &viewMaps{page: page, size: size}
	var maps [][]byte
	free := func() {
		for _, m := range maps {
			unix.Munmap(m)
		}
	}
	half := size / 2
	for i, prot := range []int{unix.PROT_READ | unix.PROT_WRITE, unix.PROT_READ, unix.PROT_READ | unix.PROT_WRITE, unix.PROT_READ | unix.PROT_WRITE} {
		full, err := framedView(fd, page, size, prot)
		if err != nil {
			free()
			return nil, err
		}
		maps = append(maps, full)
		switch i {
		case 2: // edge view A: read-only from the middle on
			err = unix.Mprotect(full[page+half:page+size], unix.PROT_READ)
		case 3: // edge view B: read-only up to the middle
			err = unix.Mprotect(full[page:page+half], unix.PROT_READ)
		}
		if err != nil {
			free()
			return nil, fmt.Errorf("mprotect: %w", err)
		}
	}
	v.rwFull, v.roFull, v.edgeA, v.edgeB = maps[0], maps[1], maps[2], maps[3]
	v.free = free
	return v, nil
}

// framedView reserves size bytes between two unmapped pages and maps the
// object fd over them with protection prot.
func framedView(fd, page, size, prot int) ([]byte, error) {
	full, err := unix.Mmap(-1, 0, size+2*page, unix.PROT_NONE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("mmap: %w", err)
	}
	if _, err := unix.MmapPtr(fd, 0, unsafe.Pointer(&full[page]), uintptr(size), prot, unix.MAP_SHARED|unix.MAP_FIXED); err != nil {
		unix.Munmap(full)
		return nil, fmt.Errorf("mmap: %w", err)
	}
	return full, nil
}
