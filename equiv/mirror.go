package equiv

import (
	"runtime"
	"sync"
)

// A mirror is memory mapped twice, as two views of the same pages: rw, where
// the suite writes an input and checks it afterwards, and ro, which the
// implementation is given and which faults on any write (Buffer.Input).
// Writing an input through rw costs a copy and no system call: the pages
// never change protection.
type mirror struct {
	*views
	cleanup runtime.Cleanup
}

// views are a mirror's mappings. They outlive the mirror that held them:
// when it is unreachable, a cleanup puts them on a free list for the next
// mirror, so that a fuzz target that builds a checker (and a Buffer) per
// input maps new memory only as fast as the garbage collector frees old.
type views struct {
	rw, ro []byte
	ro0    *region // ro, registered so that a fault in it is named
	free   func()
	// base and n are the last input placed in ro (its offset and length),
	// read by describeAddr on a fault. Only the goroutine that owns the
	// Buffer writes them, and a fault is described on that goroutine.
	base, n int
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
		rw, ro, free, err := mapTwice(n)
		if err != nil {
			return nil
		}
		v = &views{rw: rw, ro: ro, free: free}
		v.ro0 = &region{lo: AddrOf(ro), hi: AddrOf(ro) + uintptr(len(ro)), kind: readOnlyRegion, input: v.input}
		register(v.ro0)
	}
	m := &mirror{views: v}
	m.cleanup = runtime.AddCleanup(m, putViews, v)
	return m
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
		unregister(v.ro0)
		v.free()
	}
}

// setInput records where the input placed in ro lies, for fault messages.
func (v *views) setInput(base, n int) { v.base, v.n = base, n }

func (v *views) input() (uintptr, int) { return AddrOf(v.ro) + uintptr(v.base), v.n }

// ReadOnlySkip returns "" where inputs can be placed on read-only pages
// (Linux, the other Unix systems, Windows), else why not: there,
// Buffer.Intact compares a read-only input with a copy after the call
// instead, which sees a modification but not one undone before the call
// returned.
func ReadOnlySkip() string { return readOnlySkip }
