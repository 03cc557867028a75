package equiv

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// withFaultPanics runs f with memory faults turned into panics on this
// goroutine (runtime/debug.SetPanicOnFault), so that an implementation that
// reads into a guard page, or writes to an input placed on read-only pages,
// panics, is recovered by the caller's checks, and is reported as a
// counterexample instead of crashing the process. The goroutine's previous
// setting is restored.
func withFaultPanics(f func() error) error {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	return f()
}

// Fault is the panic value Catch reports for a memory fault in the
// implementation: an access to a guard page (outside the input), or a write
// to an input the engine placed on read-only pages (see Buffer.Input). It
// is never the same panic as any the reference raises, even under
// AnyPanic: a fault is a broken contract, not a documented panic.
type Fault struct {
	Addr uintptr // the faulting address
	// What says what the address is, in words: "a write to a read-only
	// input (offset 3 of 7 bytes)", "an access to the guard page after a
	// buffer", or "an access to unmapped memory".
	What string
}

func (f *Fault) Error() string { return fmt.Sprintf("memory fault: %s", f.What) }

// faultOf returns the Fault for a recovered panic value v, or nil if v is
// not a memory fault.
func faultOf(v any) *Fault {
	e, ok := v.(runtime.Error)
	if !ok {
		return nil
	}
	a, ok := e.(interface{ Addr() uintptr })
	if !ok {
		return nil
	}
	return &Fault{Addr: a.Addr(), What: describeAddr(a.Addr())}
}

// A region is memory the engine mapped: what a fault in it means.
type region struct {
	lo, hi uintptr // [lo, hi)
	kind   regionKind
	// base and n locate the last input placed in a read-only region, so
	// that a fault can name the offset written.
	input func() (base uintptr, n int)
}

type regionKind int

const (
	readOnlyRegion regionKind = iota // the read-only view of a Buffer
	guardBefore                      // the unmapped page before a Guarded region
	guardAfter                       // the unmapped page after it
	edgeAfter                        // the read-only half of an edge view, past a writable range
	edgeBefore                       // the read-only half of an edge view, before a writable range
)

var regions struct {
	sync.Mutex
	all []*region
}

// register records r until unregister(r).
func register(r *region) {
	regions.Lock()
	regions.all = append(regions.all, r)
	regions.Unlock()
}

func unregister(r *region) {
	regions.Lock()
	defer regions.Unlock()
	for i, x := range regions.all {
		if x == r {
			regions.all = append(regions.all[:i], regions.all[i+1:]...)
			return
		}
	}
}

// pageFaults says that this system reports the page of a fault, not its
// byte: on s390x the hardware gives only the failing page, and Linux's
// si_addr is the address with its low 12 bits cleared (under qemu-user as
// on a machine). A fault is still caught and reported; describePage says
// what the page is, without the distances describeAddr gives.
const pageFaults = runtime.GOARCH == "s390x"

// describeAddr says what the faulting address addr is.
func describeAddr(addr uintptr) string {
	regions.Lock()
	defer regions.Unlock()
	if pageFaults {
		return describePage(addr)
	}
	for _, r := range regions.all {
		if addr < r.lo || addr >= r.hi {
			continue
		}
		switch r.kind {
		case guardBefore:
			return fmt.Sprintf("an access %d bytes before the buffer (a guard page)", r.hi-addr)
		case guardAfter:
			return fmt.Sprintf("an access %d bytes past the buffer's end (a guard page)", addr-r.lo+1)
		case edgeAfter:
			at, _ := r.input()
			return fmt.Sprintf("a write %d bytes past the end of the range it may write (read-only octets it does not own)", addr-at+1)
		case edgeBefore:
			at, _ := r.input()
			return fmt.Sprintf("a write %d bytes before the start of the range it may write (read-only octets it does not own)", at-addr)
		}
		if r.input != nil {
			if base, n := r.input(); addr >= base && addr < base+uintptr(n) {
				return fmt.Sprintf("a write to its read-only input (offset %d of %d bytes)", addr-base, n)
			}
		}
		return "a write to read-only memory around its input (canaries or spare capacity)"
	}
	return fmt.Sprintf("an access to unmapped memory at %#x", addr)
}

// describePage is describeAddr where the fault's address is the start of
// its page (pageFaults), with regions locked.
func describePage(addr uintptr) string {
	const page = " (this system reports the page of a fault, not its byte)"
	for _, r := range regions.all {
		if addr < r.lo || addr >= r.hi {
			continue
		}
		switch r.kind {
		case guardBefore:
			return "an access to the guard page before the buffer" + page
		case guardAfter:
			return "an access to the guard page past the buffer's end" + page
		case edgeAfter:
			return "a write past the end of the range it may write (read-only octets it does not own)" + page
		case edgeBefore:
			return "a write before the start of the range it may write (read-only octets it does not own)" + page
		}
		if r.input != nil {
			if base, n := r.input(); addr < base+uintptr(n) && base < addr+4096 {
				return "a write to its read-only input, or to read-only memory in its pages" + page
			}
		}
		return "a write to read-only memory around its input (canaries or spare capacity)" + page
	}
	return fmt.Sprintf("an access to unmapped memory in the page at %#x", addr)
}
