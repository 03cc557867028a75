package equiv

import (
	"bytes"
	"fmt"
	"strings"
	"unsafe"

	"github.com/equivcheck/equivcheck/internal/contractknob"
)

// CanaryLen bytes of canary surround an input placed in a Buffer, and
// Canary is their value. A Buffer's spare capacity (see Layout) holds
// Canary bytes too.
const (
	CanaryLen = 64
	Canary    = 0xA5
)

// Poisoned is the value Buffer.Poison writes over an input whose call has
// returned: a function that kept a view of it sees it change.
const Poisoned = 0x5A

// Layout is how a Buffer placed a slice for one call. Besides the
// alignment the suite chose, the Buffer varies the rest of the layout over
// a fixed schedule of the slice's length and alignment (so that a given
// input is always placed alike, and minimization and replay see the layout
// that failed):
//
//   - Spare: the capacity past the length, 0 for three placements in
//     eight, else 1, 7, 8, 31 or 64 bytes, all holding canaries. A
//     function that reads b[len(b):cap(b)] (an odd byte padded from the
//     next one, a wide load or store, a bound checked against cap instead
//     of len) reads canaries, and one that writes there is seen.
//   - Nil: an empty slice is nil in one placement in four, empty with no
//     capacity in another, and empty with spare capacity otherwise.
//   - ReadOnly: an input placed with Input, on read-only pages where the
//     system allows (ReadOnlySkip): a write faults during the call.
type Layout struct {
	Align    int  // the first byte's offset from a 64-byte boundary
	Spare    int  // cap - len, the bytes past the end holding canaries
	Nil      bool // an empty slice passed as nil
	ReadOnly bool // on pages the function cannot write
}

// String describes l for a counterexample: "align=5 cap=len+7 read-only".
func (l Layout) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "align=%d", l.Align)
	switch {
	case l.Nil:
		b.WriteString(" nil")
	case l.Spare > 0:
		fmt.Fprintf(&b, " cap=len+%d", l.Spare)
	}
	if l.ReadOnly {
		b.WriteString(" read-only")
	}
	return b.String()
}

// spares are the spare capacities of the layout schedule: none, an odd
// byte, a word less one byte, a word, an AVX2 vector less one, an AVX-512
// vector.
var spares = [8]int{0, 1, 0, 7, 0, 31, 8, 64}

// LayoutOf returns the layout a Buffer gives a slice of n bytes at align:
// index (n + 3·align) mod 8 of the schedule, so that over the 64
// alignments every length takes every spare capacity, and over the
// lengths every alignment does.
func LayoutOf(n, align int) Layout {
	if contractknob.NoSpare.Load() {
		return Layout{Align: align}
	}
	i := (n + 3*align) & 7
	l := Layout{Align: align, Spare: spares[i]}
	if n == 0 {
		switch i & 3 {
		case 0:
			l.Spare, l.Nil = 0, true
		case 1:
			l.Spare = 0
		default:
			l.Spare = max(l.Spare, 1)
		}
	}
	return l
}

// Buffer is a reusable scratch buffer, 64-byte aligned, that places an
// input at a chosen alignment between canaries, with the spare capacity of
// its Layout, so that a suite can vary alignment and capacity and see
// writes outside the input; Input places it on read-only pages too. The
// zero Buffer is ready to use; it grows as needed. A Buffer belongs to one
// goroutine.
type Buffer struct {
	mem  []byte    // what the suite writes and checks
	ro   []byte    // a read-only view of mem, or nil
	m    *mirror   // holds mem and ro while the Buffer lives
	old  []*mirror // earlier mirrors, which slices still in use may point into
	lay  Layout
	off  int    // the last slice's offset in mem
	n    int    // its length
	orig []byte // a copy of the last Input where ro is nil, for Intact
	in   bool   // the last placement was Input
}

// Place copies data to a slice laid out as LayoutOf(len(data), align) says
// (align 0..63 from a 64-byte boundary, spare capacity and canaries after
// it, canaries before it) and returns the slice, for a function that may
// write its input (masking in place).
func (b *Buffer) Place(data []byte, align int) []byte {
	s := b.Slot(len(data), align)
	copy(s, data)
	return s
}

// Input is Place for an input the function must not write, even for a
// moment: where the system allows (ReadOnlySkip), the slice returned lies
// on pages that fault on any write, which Catch reports as a *Fault; Intact
// reports a modification elsewhere.
func (b *Buffer) Input(data []byte, align int) []byte {
	s := b.place(len(data), align, true)
	copy(b.mem[b.off:b.off+len(data)], data)
	if !b.lay.ReadOnly {
		b.orig = append(b.orig[:0], data...)
	}
	return s
}

// Slot returns n bytes laid out as Place lays out an input, filled with
// Canary bytes (so that a byte a function fails to write shows), for an
// output.
func (b *Buffer) Slot(n, align int) []byte {
	return b.place(n, align, false)
}

// place fills the buffer with canaries and returns the slot of n bytes at
// align, from the read-only view if ro and one exists.
func (b *Buffer) place(n, align int, ro bool) []byte {
	need := CanaryLen + 64 + n + 64 + CanaryLen
	if len(b.mem) < need {
		b.grow(max(need, 2*need))
	}
	b.lay = LayoutOf(n, align)
	b.off, b.n, b.in = CanaryLen+align, n, ro
	fillCanary(b.mem[:need])
	mem := b.mem
	if ro && b.ro != nil && !contractknob.NoReadOnly.Load() {
		mem = b.ro
		b.lay.ReadOnly = true
		b.m.setInput(b.off, n)
	}
	if b.lay.Nil {
		return nil
	}
	return mem[b.off : b.off+n : b.off+n+b.lay.Spare]
}

// grow replaces the buffer's memory with n bytes, on a mirror where one
// can be mapped.
func (b *Buffer) grow(n int) {
	if b.m != nil {
		b.old = append(b.old, b.m)
	}
	b.m = newMirror(n)
	if b.m != nil {
		b.mem, b.ro = b.m.rw[:n:n], b.m.ro[:n:n]
		return
	}
	b.mem, b.ro = AlignedBuffer(n), nil
}

// Release gives the Buffer's memory back for other Buffers to use, and
// leaves b as the zero Buffer: a suite calls it when a checker is done (a
// method's end, a fuzz input checked), so that a fuzz target that builds a
// checker per input maps no new memory per input. No slice b returned may
// be used after it. A Buffer never released gives its memory back once
// it is garbage.
func (b *Buffer) Release() {
	for _, m := range append(b.old, b.m) {
		if m != nil {
			m.release()
		}
	}
	*b = Buffer{}
}

// Layout returns the layout of the last slice placed.
func (b *Buffer) Layout() Layout { return b.lay }

// Intact reports whether the canaries around the last slice placed,
// spare capacity included, are unchanged, and whether an Input that could
// not be made read-only still holds what was placed.
func (b *Buffer) Intact() bool {
	all := b.mem[:CanaryLen+64+b.n+64+CanaryLen]
	if !allCanary(all[:b.off]) || !allCanary(all[b.off+b.n:]) {
		return false
	}
	return !b.in || b.lay.ReadOnly || bytes.Equal(all[b.off:b.off+b.n], b.orig)
}

// Poison overwrites the last slice placed with Poisoned bytes: a suite
// calls it once the call's results are judged, so that a function that
// kept a view of its input (to read it in a later call) sees it change.
func (b *Buffer) Poison() { b.PoisonRange(0, b.n) }

// PoisonRange overwrites bytes i to j of the last slice placed, as Poison
// does the whole: a suite that feeds an input to a stateful function in
// pieces poisons each piece once its call has returned.
func (b *Buffer) PoisonRange(i, j int) {
	if b.mem == nil || contractknob.NoPoison.Load() {
		return
	}
	s := b.mem[b.off+i : b.off+j]
	PoisonBytes(s)
	if b.in && !b.lay.ReadOnly {
		copy(b.orig[i:j], s) // Intact compares with what is there now
	}
}

// PoisonBytes overwrites b with Poisoned bytes, as PoisonRange does a
// placed slice: for an input a suite placed itself (at a guard page).
func PoisonBytes(b []byte) {
	if contractknob.NoPoison.Load() {
		return
	}
	for len(b) > 0 {
		b = b[copy(b, poison):]
	}
}

// canaries is a block of Canary bytes that fillCanary copies from and
// allCanary compares with, so that both run at memmove's and memequal's
// speed rather than a byte at a time (they are half the cost of a short
// input's placement otherwise).
var canaries = bytes.Repeat([]byte{Canary}, 4096)

// poison is a block of Poisoned bytes, for PoisonRange.
var poison = bytes.Repeat([]byte{Poisoned}, 4096)

func fillCanary(b []byte) {
	for len(b) > 0 {
		b = b[copy(b, canaries):]
	}
}

func allCanary(b []byte) bool {
	for len(b) > 0 {
		n := min(len(b), len(canaries))
		if !bytes.Equal(b[:n], canaries[:n]) {
			return false
		}
		b = b[n:]
	}
	return true
}

// AlignedBuffer returns a buffer of n bytes starting at a 64-byte boundary.
func AlignedBuffer(n int) []byte {
	b := make([]byte, n+64)
	off := int(64-AddrOf(b)%64) % 64
	return b[off : off+n : off+n]
}

// AddrOf returns the address of b's first element (of its backing array,
// for an empty b), to align buffers and to tell where a returned slice
// lies in its input.
func AddrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
