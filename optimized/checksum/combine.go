package checksum

import (
	"encoding/binary"
	"math/bits"
)

// Combine returns the one's-complement sum of two adjacent pieces of data
// from their partial sums: sum is the Sum of the bytes before the second
// piece (with any initial value), next is Sum(piece, 0) of the second piece,
// and offset is where the second piece starts, counted from the first byte
// sum covers. For any a and b, bit for bit (0x0000 and 0xFFFF included),
//
//	Combine(Sum(a, initial), Sum(b, 0), len(a)) == Sum(a||b, initial)
//
// Only offset's parity matters: a piece at an odd offset has each byte in
// the other half of its word, so its sum is byte-swapped first (RFC 1071
// §2(B), the rule Digest applies to each Write). A negative offset counts
// by its parity too. Combine never panics.
//
// Unlike gVisor's checksum.Combine, which requires the first piece to have
// an even length, any offset is allowed: the swap is a rotation by
// 8×(offset&1) bits, with no branch.
func Combine(sum, next uint16, offset int) uint16 {
	next = bits.RotateLeft16(next, int(offset&1)<<3)
	// sum + next < 2^17; fold32's end-around carry keeps 0x0000 only
	// for 0 + 0 and gives 0xFFFF, never 0x0000, for a nonzero total
	// ≡ 0 (mod 0xFFFF), as Sum does.
	return fold32(uint32(sum) + uint32(next))
}

// Put writes the checksum c into b[0:2], most significant byte first
// (network byte order, RFC 791 Appendix B), and reports true. If len(b) < 2
// it writes nothing and reports false; it never panics, unlike
// binary.BigEndian.PutUint16 (and gVisor's checksum.Put).
func Put(b []byte, c uint16) bool {
	if len(b) < 2 {
		return false
	}
	binary.BigEndian.PutUint16(b, c)
	return true
}
