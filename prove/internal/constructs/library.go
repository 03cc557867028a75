package constructs

import (
	"encoding/binary"
	"math/bits"
)

// Binary uses encoding/binary's byte orders on a slice of 8 or more.
func Binary(b []byte, v uint64) (uint16, uint32, uint64, uint16, uint32, uint64, []byte) {
	be, le := binary.BigEndian, binary.LittleEndian
	x := be.Uint16(b) ^ le.Uint16(b[1:])
	y := be.Uint32(b) ^ le.Uint32(b[2:])
	z := be.Uint64(b)
	be.PutUint16(b, uint16(v))
	le.PutUint32(b[2:], uint32(v))
	le.PutUint64(b, v^z)
	out := be.AppendUint32(nil, y)
	out = le.AppendUint16(out, x)
	return x, y, z, le.Uint16(b), be.Uint32(b[4:]), le.Uint64(b), out
}

// Bits uses math/bits: rotations, byte reversal, counts (table lookups),
// and the carries of Add64, Sub64 and Mul64.
func Bits(a, b uint64, k int) (uint64, uint32, uint16, uint64, int, int, int, uint64, uint64, uint64, uint64) {
	s, c := bits.Add64(a, b, a>>63)
	d, br := bits.Sub64(a, b, 1)
	hi, lo := bits.Mul64(a, b)
	return bits.RotateLeft64(a, k), bits.RotateLeft32(uint32(a), -k), bits.ReverseBytes16(uint16(b)),
		bits.ReverseBytes64(a), bits.Len64(b), bits.OnesCount32(uint32(a)), bits.TrailingZeros64(a),
		s + c, d ^ br, hi, lo
}
