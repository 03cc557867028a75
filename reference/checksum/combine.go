package checksum

// Combine returns the one's-complement sum of two adjacent pieces of data
// from their partial sums: sum is the Sum of the bytes before the second
// piece (with any initial value), next is Sum(piece, 0) of the second piece,
// and offset is where the second piece starts, counted from the first byte
// that sum covers. So for any a and b,
//
//	Combine(Sum(a, initial), Sum(b, 0), len(a)) == Sum(a||b, initial)
//
// bit for bit, the 0x0000/0xFFFF distinction included.
//
// Only the parity of offset matters: a piece that starts at an odd offset
// is summed as if it started at an even one and then byte-swapped. A
// negative offset is taken by its parity too (offset%2 != 0); Combine never
// panics.
func Combine(sum, next uint16, offset int) uint16 {
	// RFC 1071 §2(A): "As long as the even/odd assignment of bytes is
	// respected, the sum can be done in any order, and it can be
	// arbitrarily split into groups."
	//
	// RFC 1071 §2(B): the sum of the byte-swapped words is the
	// byte-swapped sum. A piece that starts at an odd offset puts each of
	// its bytes in the other half of a word than Sum(piece, 0) assumed, so
	// its true contribution is that sum byte-swapped (the rule Digest
	// applies to each Write, RFC 1071 §3).
	if offset%2 != 0 {
		next = next<<8 | next>>8
	}
	// RFC 1071 §2(A): the groups' sums are added in one's-complement
	// arithmetic, the carry out of bit 15 added back into bit 0.
	return addOnes(sum, next)
}

// Put writes the checksum c into b[0:2] in network byte order (most
// significant byte first, RFC 791 Appendix B), the order in which every
// header holding an Internet checksum transmits it, and reports true. If b
// is shorter than Size bytes, Put writes nothing and reports false: it
// never panics.
func Put(b []byte, c uint16) bool {
	if len(b) < Size {
		return false
	}
	// RFC 791 Appendix B: octets go out in the order the header diagrams
	// are read, so a 16-bit field's most significant octet comes first.
	b[0] = byte(c >> 8)
	b[1] = byte(c)
	return true
}
