// Package checksum computes the Internet checksum of RFC 1071 §4.1, with the
// incremental update of RFC 1624 §3, as a literal transcription of the RFCs.
//
// It is the oracle that the optimized package and the conformance suite in
// equiv are measured against: one 16-bit word at a time, no unsafe, no
// unrolling, each step beside the RFC text it implements. It imports only the
// standard library.
package checksum

import "encoding/binary"

// Sum returns the one's-complement sum of b's 16-bit big-endian words,
// accumulated onto initial, as RFC 1071 §4.1's loop computes it. If len(b) is
// odd, the final byte is padded on the right with a zero byte (it is the high
// byte of the last word). The result is not complemented.
//
// The result is 0x0000 only when initial and every word are zero; a nonzero
// total that is ≡ 0 mod 0xFFFF is 0xFFFF ("negative zero"). Sum is exact for
// inputs of any length.
func Sum(b []byte, initial uint16) uint16 {
	// RFC 1071 §4.1:
	//   /* Compute Internet Checksum for "count" bytes
	//    *         beginning at location "addr".
	//    */
	//   register long sum = 0;
	//
	// The accumulator starts at initial (a sum carried over from an earlier
	// call, such as a pseudo-header). It is 64 bits wide: each word adds at
	// most 0xFFFF, so it cannot overflow before 2^48 words (512 TiB), where
	// the RFC's 32-bit "long" overflows after about 128 KiB of 0xFF bytes.
	sum := uint64(initial)

	//   while( count > 1 )  {
	//      /*  This is the inner loop */
	//          sum += * (unsigned short) addr++;
	//          count -= 2;
	//   }
	//
	// The RFC's *(unsigned short) reads in network byte order on the
	// big-endian machines it was written for (§2(B) explains why the sum is
	// byte-order independent; here we read big-endian words directly).
	for len(b) > 1 {
		sum += uint64(binary.BigEndian.Uint16(b))
		b = b[2:]
	}

	//   /*  Add left-over byte, if any */
	//   if( count > 0 )
	//          sum += * (unsigned char *) addr;
	//
	// RFC 1071 §2(A)/(B): an odd trailing byte is the high-order byte of a
	// word whose low-order byte is zero.
	if len(b) > 0 {
		sum += uint64(b[0]) << 8
	}

	//   /*  Fold 32-bit sum to 16 bits */
	//   while (sum>>16)
	//      sum = (sum & 0xffff) + (sum >> 16);
	for sum>>16 != 0 {
		sum = sum&0xffff + sum>>16
	}
	return uint16(sum)
}

// Checksum returns the Internet checksum of b: the one's complement of
// Sum(b, 0), the value an IPv4, ICMP, TCP or UDP checksum field holds
// (RFC 1071 §4.1: "checksum = ~sum;").
//
// UDP over IPv4 (RFC 768) transmits a computed checksum of 0x0000 as 0xFFFF,
// because 0x0000 there means "no checksum"; that substitution is the caller's.
func Checksum(b []byte) uint16 {
	return ^Sum(b, 0)
}

// Update returns the checksum field after one 16-bit word covered by it
// changes from old to new, by RFC 1624 §3 Eqn. 3:
//
//	HC' = ~(~HC + ~m + m')
//
// where HC is the old checksum field, m the old word and m' the new one, and
// + is one's-complement addition. Unlike RFC 1141's formula, Eqn. 3 never
// produces 0xFFFF where recomputing the checksum gives 0x0000 (RFC 1624 §4).
//
// If old == new, nothing changed and Update returns checksum as it is, as
// RFC 1624 errata 4782 (held for document update) asks: "the incremental
// checksum computation should be done only when there is change in value".
// Eqn. 3 returns checksum then too, except for a field of 0xFFFF, which it
// turns into 0x0000; a field of 0xFFFF is what recomputing gives over data
// that is all zero, where 0x0000 would not verify (RFC 1071 §1 (3): the sum
// including the field would be 0x0000, not 0xFFFF). docs/equivalence.md
// has the argument, and says why the suites accept either result there.
func Update(checksum, old, new uint16) uint16 {
	if old == new {
		return checksum
	}
	// ~HC + ~m + m', in a wide accumulator, then the end-around carries
	// folded as in RFC 1071 §4.1.
	sum := uint32(^checksum) + uint32(^old) + uint32(new)
	for sum>>16 != 0 {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}
