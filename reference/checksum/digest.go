package checksum

import "hash"

// Size is the size of an Internet checksum in bytes.
const Size = 2

// Digest computes the Internet checksum of a stream written to it in pieces
// of any length. It implements hash.Hash.
//
// RFC 1071 §3 gives the rule that joins the pieces: "if a group starts at an
// odd byte boundary, [its] sum ... may be computed as if it started on an
// even boundary, and then byte-swapped." Digest keeps the running Sum and the
// parity of the number of bytes written, and applies that rule to each Write.
type Digest struct {
	sum uint16 // running one's-complement sum, as Sum returns it
	odd bool   // an odd number of bytes has been written
}

var _ hash.Hash = (*Digest)(nil)

// New returns a Digest with nothing written.
func New() *Digest { return new(Digest) }

// Write adds p to the running sum. It never fails.
func (d *Digest) Write(p []byte) (int, error) {
	// The sum of p as if it started on an even boundary.
	s := Sum(p, 0)
	if d.odd {
		// RFC 1071 §3, "Parallel Summation" and the odd-boundary rule:
		// byte-swap the group's sum.
		s = s<<8 | s>>8
	}
	// One's-complement addition of the two partial sums (RFC 1071 §2(A)):
	// Sum of nothing, accumulated onto the first, adds the second.
	d.sum = addOnes(d.sum, s)
	if len(p)%2 == 1 {
		d.odd = !d.odd
	}
	return len(p), nil
}

// addOnes returns the one's-complement sum a + b.
func addOnes(a, b uint16) uint16 {
	s := uint32(a) + uint32(b)
	for s>>16 != 0 {
		s = s&0xffff + s>>16
	}
	return uint16(s)
}

// Sum16 returns the one's-complement sum of all bytes written so far: exactly
// Sum of their concatenation with initial 0.
func (d *Digest) Sum16() uint16 { return d.sum }

// Sum appends the checksum of the bytes written so far, ^Sum16(), in
// big-endian order (network byte order) to in. It does not change the state.
func (d *Digest) Sum(in []byte) []byte {
	c := ^d.sum
	return append(in, byte(c>>8), byte(c))
}

// Reset forgets everything written.
func (d *Digest) Reset() { *d = Digest{} }

// Size returns 2.
func (d *Digest) Size() int { return Size }

// BlockSize returns 2, the width of a checksum word: writes of any length are
// accepted, but writes that are multiples of 2 avoid the byte swap.
func (d *Digest) BlockSize() int { return 2 }
