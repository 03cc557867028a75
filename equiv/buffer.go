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
//   - Edge: where the alignment allows it, the slice lies flush against
//     an unmapped page or read-only octets (see Edge).
type Layout struct {
	Align    int  // the first byte's offset from a 64-byte boundary
	Spare    int  // cap - len, the bytes past the end holding canaries
	Nil      bool // an empty slice passed as nil
	ReadOnly bool // on pages the function cannot write
	Edge     Edge // flush against a page of another protection, or not
}

// Edge says what lies flush against a placed slice, where the system has
// framed views (EdgeSkip). A page boundary falls at a given offset from a
// slice's start only at one alignment, so an Edge is placed where the
// alignment the suite chose is that one: each length meets each Edge at
// one alignment of the 64.
type Edge int

const (
	// EdgeNone: canaries on both sides.
	EdgeNone Edge = iota
	// GuardBefore: an unmapped page just before the first octet (at
	// alignment 0).
	GuardBefore
	// GuardAfter: an unmapped page from just past the last octet, spare
	// capacity included: a read or write past len faults. (Not for an
	// append's room, which the function may read: see plan.)
	GuardAfter
	// ReadOnlyBefore: read-only octets just before the range the function
	// may write: a function that reads them and writes back what was
	// there faults, where canaries see nothing.
	ReadOnlyBefore
	// ReadOnlyAfter: read-only octets from just past the range the
	// function may write (its spare capacity, the rest of a slice it
	// writes a prefix of).
	ReadOnlyAfter
)

var edgeWords = [...]string{GuardBefore: "after an unmapped page", GuardAfter: "before an unmapped page",
	ReadOnlyBefore: "after read-only octets", ReadOnlyAfter: "before read-only octets"}

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
	if l.Edge != EdgeNone {
		b.WriteString(" " + edgeWords[l.Edge])
	}
	return b.String()
}

// spares are the spare capacities of the layout schedule: none, an odd
// byte, a word less one byte, a word, an AVX2 vector less one, an AVX-512
// vector.
var spares = [8]int{0, 1, 0, 7, 0, 31, 8, 64}

// LayoutOf returns the layout a Buffer gives a slice of n bytes at align
// between canaries: index (n + 3·align) mod 8 of the schedule, so that
// over the 64 alignments every length takes every spare capacity, and
// over the lengths every alignment does. (Buffer.Input and Place add an
// Edge where the alignment allows one: edgeFor.)
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

// appendSpares are the spare capacities of a slice appended to, by
// (n + 3·align) mod 16, where k octets are to be appended: exactly k, one
// less and one more, and every value from 0 to 8.
func appendSpare(n, align, k int) int {
	if contractknob.NoExactAppend.Load() {
		return LayoutOf(n, align).Spare
	}
	s := [16]int{k, 0, k - 1, 1, k, 2, 3, k + 1, 4, 5, 6, 7, 8, k, 31, 64}[(n+3*align)&15]
	return max(s, 0)
}

// edgeFor returns the Edge of a slice of n bytes at align of which the
// function may write [lo, hi) (lo == hi: none): flush after where a page
// boundary can fall at hi, flush before where one can fall at lo (at an
// alignment where both can, by n's seventh bit). A slice it may not write
// is flush against an unmapped page; a writable range against read-only
// octets, or, where it spans the whole slice at that side, every other
// time (by n's eighth bit) against an unmapped page.
func edgeFor(n, align, lo, hi int, writes bool) Edge {
	if !writes {
		lo, hi = 0, n // the slice itself meets the page
	}
	if n == 0 && hi == 0 || contractknob.NoEdges.Load() {
		return EdgeNone
	}
	after, before := align == -hi&63, align == -lo&63
	if after && before {
		after, before = n>>6&1 == 0, n>>6&1 == 1
	}
	guard := !writes || n>>7&1 == 1
	switch {
	case after && guard && hi == n:
		return GuardAfter
	case before && guard && lo == 0:
		return GuardBefore
	case after:
		return ReadOnlyAfter
	case before:
		return ReadOnlyBefore
	}
	return EdgeNone
}

// Buffer is a reusable scratch buffer, 64-byte aligned, that places an
// input at a chosen alignment between canaries, with the spare capacity of
// its Layout, so that a suite can vary alignment and capacity and see
// writes outside the input; Input places it on read-only pages too, and
// both place it flush against unmapped or read-only pages where the
// alignment allows (Edge). The zero Buffer is ready to use; it grows as
// needed. A Buffer belongs to one goroutine.
type Buffer struct {
	mem []byte    // the read-write data area: what the suite writes and checks
	m   *mirror   // holds mem and its other views while the Buffer lives
	old []*mirror // earlier mirrors, which slices still in use may point into
	lay Layout
	off int // the last slice's offset in mem
	n   int // its length
	// [rlo, rhi) is the region of mem holding canaries around it, and
	// [wlo, whi) (relative to off) the range the function may write.
	rlo, rhi, wlo, whi int
	// orig holds the slice's bytes where some of them may not be written
	// and are not on read-only pages, for Intact.
	orig    []byte
	compare bool
}

// Place copies data to a slice laid out as LayoutOf(len(data), align) says
// (align 0..63 from a 64-byte boundary, spare capacity and canaries after
// it, canaries before it) and returns the slice, for a function that may
// write its input (masking in place). Where the alignment allows, the
// slice lies flush against read-only octets or an unmapped page (Edge).
func (b *Buffer) Place(data []byte, align int) []byte {
	return b.placeAs(Writes, data, len(data), align)
}

// Input is Place for an input the function must not write, even for a
// moment: where the system allows (ReadOnlySkip), the slice returned lies
// on pages that fault on any write, which Catch reports as a *Fault; Intact
// reports a modification elsewhere.
func (b *Buffer) Input(data []byte, align int) []byte {
	return b.placeAs(Reads, data, len(data), align)
}

// Slot returns n bytes laid out as Place lays out an input, filled with
// Canary bytes (so that a byte a function fails to write shows), for an
// output.
func (b *Buffer) Slot(n, align int) []byte {
	return b.placeAs(Writes, nil, n, align)
}

// placeAs places n bytes of data (nil: canaries) at align for a function
// that reads them or writes them whole.
func (b *Buffer) placeAs(acc Access, data []byte, n, align int) []byte {
	acc, lo, hi, lay := plan(acc, n, align, 0)
	return b.place(acc, data, n, lo, hi, lay)
}

// place lays out n bytes as lay says, copies data (nil: canaries) into
// them and returns the slice, for a function with access acc that may
// write [lo, hi) of it (hi past n: of its spare capacity, as an append
// does).
func (b *Buffer) place(acc Access, data []byte, n, lo, hi int, lay Layout) []byte {
	need := CanaryLen + 64 + n + 64 + CanaryLen + max(lay.Spare-64, 0)
	if lay.Edge == ReadOnlyBefore || lay.Edge == ReadOnlyAfter {
		need *= 2 // the writable range meets the read-only half in the middle
	}
	if len(b.mem) < need {
		b.grow(2 * need)
	}
	if b.m == nil {
		lay.Edge = EdgeNone
	}
	ro := lay.ReadOnly && b.m != nil
	lay.ReadOnly = ro
	view, off := b.site(lay, n, lo, hi)
	b.lay, b.off, b.n, b.wlo, b.whi = lay, off, n, lo, hi
	b.rlo, b.rhi = max(0, off-CanaryLen), min(len(b.mem), off+n+lay.Spare+CanaryLen)
	fillCanary(b.mem[b.rlo:b.rhi])
	copy(b.mem[off:off+n], data)
	// A prefix that covers the whole slice leaves nothing to compare (a
	// MaskCopy dst as long as src): no copy of it, which at scale is as
	// large as the input.
	b.compare = acc == Reads && !ro || acc == WritesPrefix && hi < n || acc == Appends
	if b.compare {
		b.orig = append(b.orig[:0], b.mem[off:off+n]...)
	}
	if ro {
		b.m.setInput(off, n)
	}
	if lay.Nil {
		return nil
	}
	return view[off : off+n : off+n+lay.Spare]
}

// site returns the view a slice with layout lay is cut from (indexed
// like mem: a framed view from its data area on) and its offset there.
func (b *Buffer) site(lay Layout, n, lo, hi int) ([]byte, int) {
	if b.m == nil {
		return b.mem, CanaryLen + lay.Align
	}
	v := b.m.views
	rw, ro := v.rwFull[v.page:], v.roFull[v.page:]
	half := v.size / 2
	switch lay.Edge {
	case GuardBefore, GuardAfter:
		base := rw
		if lay.ReadOnly {
			base = ro
		}
		if lay.Edge == GuardBefore {
			return base, 0
		}
		return base, v.size - n
	case ReadOnlyAfter:
		v.edge = half
		return v.edgeA[v.page:], half - hi
	case ReadOnlyBefore:
		v.edge = half
		return v.edgeB[v.page:], half - lo
	}
	if lay.ReadOnly {
		return ro, CanaryLen + lay.Align
	}
	return rw, CanaryLen + lay.Align
}

// grow replaces the buffer's memory with at least n bytes, on a mirror
// where one can be mapped.
func (b *Buffer) grow(n int) {
	if b.m != nil {
		b.old = append(b.old, b.m)
	}
	b.m = newMirror(n)
	if b.m != nil {
		b.mem = b.m.rw
		return
	}
	b.mem = AlignedBuffer(n)
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
// spare capacity included (but for the part of it the function may
// write), are unchanged, and whether the bytes of the slice it may not
// write (all of an Input that could not be made read-only) still hold
// what was placed.
func (b *Buffer) Intact() bool { return b.damage() == damageNone }

// damage says what changed that the function may not write: canaries
// around the last slice placed (or its spare capacity), or its own bytes.
type damage int

const (
	damageNone damage = iota
	damageOutside
	damageInside
)

func (b *Buffer) damage() damage {
	if b.mem == nil {
		return damageNone
	}
	past := min(b.off+max(b.n, b.whi), b.rhi)
	if !allCanary(b.mem[b.rlo:b.off]) || !allCanary(b.mem[past:b.rhi]) {
		return damageOutside
	}
	if !b.compare {
		return damageNone
	}
	s := b.mem[b.off : b.off+b.n]
	wlo, whi := min(b.wlo, b.n), min(b.whi, b.n)
	if !bytes.Equal(s[:wlo], b.orig[:wlo]) || !bytes.Equal(s[whi:], b.orig[whi:]) {
		return damageInside
	}
	return damageNone
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
	if b.compare {
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
