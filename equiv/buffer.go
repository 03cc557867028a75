package equiv

import "unsafe"

// CanaryLen bytes of canary surround an input placed in a Buffer, and
// Canary is their value.
const (
	CanaryLen = 64
	Canary    = 0xA5
)

// Buffer is a reusable scratch buffer, 64-byte aligned, that places an
// input at a chosen alignment between canary bytes, so that a suite can
// vary alignment and see writes outside the input. The zero Buffer is
// ready to use; it grows as needed.
type Buffer struct {
	buf      []byte
	align, n int
}

// Place copies data to offset align (0..63) from a 64-byte boundary,
// between canaries, and returns the copy, whose capacity equals its length.
func (b *Buffer) Place(data []byte, align int) []byte {
	s := b.Slot(len(data), align)
	copy(s, data)
	return s
}

// Slot returns n bytes at offset align (0..63) from a 64-byte boundary,
// between canaries, with capacity equal to length, filled with Canary
// bytes too (so that a byte a function fails to write shows).
func (b *Buffer) Slot(n, align int) []byte {
	need := CanaryLen + 64 + n + CanaryLen
	if cap(b.buf) < need {
		b.buf = AlignedBuffer(max(need, 2*need))
	}
	all := b.buf[:need]
	fillCanary(all)
	b.align, b.n = align, n
	return all[CanaryLen+align : CanaryLen+align+n : CanaryLen+align+n]
}

// Intact reports whether the canaries around the last Place or Slot are
// unchanged.
func (b *Buffer) Intact() bool {
	all := b.buf[:CanaryLen+64+b.n+CanaryLen]
	return allCanary(all[:CanaryLen+b.align]) && allCanary(all[CanaryLen+b.align+b.n:])
}

func fillCanary(b []byte) {
	for i := range b {
		b[i] = Canary
	}
}

func allCanary(b []byte) bool {
	for _, c := range b {
		if c != Canary {
			return false
		}
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
