package equiv

import (
	"runtime"
	"sync"
)

// A mirror is memory mapped several times, as views of the same pages: rw,
// where the suite writes an input and checks it afterwards, and which a
// function that may write its input is given; ro, which a function that
// may not is given, and which faults on any write (Buffer.Input); and,
// where mapViews makes them, two edge views, each read-write in one half
// and read-only in the other, so that a writable range can be placed flush
// against read-only octets (Edge). Each view is framed by an unmapped
// page on each side, for the guard placements. Writing an input through
// rw costs a copy and no system call: the pages never change protection.
type mirror struct {
	*views
	cleanup runtime.Cleanup
}

// viewMaps are the mappings of one mirror, as mapViews makes them. Each
// full view is page + size + page bytes, the data area at offset page;
// where views are not framed (page 0), the data area is the whole view,
// and the edge views are nil.
type viewMaps struct {
	rwFull, roFull []byte
	edgeA, edgeB   []byte // read-only from size/2 on (A), up to size/2 (B)
	page, size     int
	free           func()
}

// data returns the data area of the full view v.
func (m *viewMaps) data(v []byte) []byte { return v[m.page : m.page+m.size : m.page+m.size] }

// views are a mirror's mappings. They outlive the mirror that held them:
// when it is unreachable, a cleanup puts them on a free list for the next
// mirror, so that a fuzz target that builds a checker (and a Buffer) per
// input maps new memory only as fast as the garbage collector frees old.
type views struct {
	*viewMaps
	rw, ro  []byte    // the data areas of rwFull and roFull
	regions []*region // registered, so that a fault in them is named
	// base and n are the last input placed in ro (its offset and length),
	// read by describeAddr on a fault; edge is the offset in the data
	// area where the writable range of the last edge placement ends (in
	// edgeA) or starts (in edgeB). Only the goroutine that owns the
	// Buffer writes them, and a fault is described on that goroutine.
	base, n, edge int
}

// spareViews are views whose mirror was collected, ready for another.
var spareViews struct {
	sync.Mutex
	list []*views
}

// maxSpareViews bounds the free list; views beyond it are unmapped.
const maxSpareViews = 64

// newMirror returns a mirror of at least n bytes, or nil where read-only
// views cannot be made (ReadOnlySkip says why) or mapping fails.
func newMirror(n int) *mirror {
	v := takeViews(n)
	if v == nil {
		m, err := mapViews(n)
		if err != nil {
			return nil
		}
		v = &views{viewMaps: m, rw: m.data(m.rwFull), ro: m.data(m.roFull)}
		v.register()
	}
	m := &mirror{views: v}
	m.cleanup = runtime.AddCleanup(m, putViews, v)
	return m
}

// register records v's read-only parts and frames, so that a fault in one
// is named.
func (v *views) register() {
	span := func(b []byte, lo, hi int, kind regionKind, input func() (uintptr, int)) *region {
		return &region{lo: AddrOf(b) + uintptr(lo), hi: AddrOf(b) + uintptr(hi), kind: kind, input: input}
	}
	p, s, half := v.page, v.size, v.size/2
	v.regions = []*region{span(v.roFull, p, p+s, readOnlyRegion, v.input)}
	if p > 0 {
		for _, full := range [][]byte{v.rwFull, v.roFull, v.edgeA, v.edgeB} {
			v.regions = append(v.regions, span(full, 0, p, guardBefore, nil), span(full, p+s, p+s+p, guardAfter, nil))
		}
	}
	if v.edgeA != nil {
		v.regions = append(v.regions, span(v.edgeA, p+half, p+s, edgeAfter, v.edgeAt(v.edgeA)),
			span(v.edgeB, p, p+half, edgeBefore, v.edgeAt(v.edgeB)))
	}
	for _, r := range v.regions {
		register(r)
	}
}

// release puts m's views on the free list now, rather than when m is
// garbage.
func (m *mirror) release() {
	m.cleanup.Stop()
	putViews(m.views)
	m.views = nil
}

// takeViews returns spare views of at least n bytes, or nil.
func takeViews(n int) *views {
	spareViews.Lock()
	defer spareViews.Unlock()
	for i, v := range spareViews.list {
		if len(v.rw) >= n {
			spareViews.list = append(spareViews.list[:i], spareViews.list[i+1:]...)
			return v
		}
	}
	return nil
}

// putViews keeps v for another mirror, or unmaps it if enough are kept.
func putViews(v *views) {
	v.setInput(0, 0)
	spareViews.Lock()
	if len(spareViews.list) < maxSpareViews {
		spareViews.list = append(spareViews.list, v)
		v = nil
	}
	spareViews.Unlock()
	if v != nil {
		for _, r := range v.regions {
			unregister(r)
		}
		v.free()
	}
}

// setInput records where the input placed in ro lies, for fault messages.
func (v *views) setInput(base, n int) { v.base, v.n = base, n }

func (v *views) input() (uintptr, int) { return AddrOf(v.ro) + uintptr(v.base), v.n }

// edgeAt returns, for the edge view full, where the writable range of the
// last placement in it meets the read-only half.
func (v *views) edgeAt(full []byte) func() (uintptr, int) {
	return func() (uintptr, int) { return AddrOf(full) + uintptr(v.page+v.edge), 0 }
}

// ReadOnlySkip returns "" where inputs can be placed on read-only pages
// (Linux, the other Unix systems, Windows), else why not: there,
// Buffer.Intact compares a read-only input with a copy after the call
// instead, which sees a modification but not one undone before the call
// returned.
func ReadOnlySkip() string { return readOnlySkip }

// EdgeSkip returns "" where inputs can be placed flush against unmapped or
// read-only pages in every method (Edge: Linux and the other Unix
// systems), else why not.
func EdgeSkip() string { return edgeSkip }
