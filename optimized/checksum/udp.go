package checksum

import (
	"math"
	"net/netip"
)

// The UDP checksum field has rules of its own (see reference/checksum for
// the RFC text): over IPv4 a field of 0x0000 means "no checksum" (RFC 768)
// and must be carried unchanged; over IPv6 it makes the datagram invalid
// (RFC 8200 §8.1); over both, a checksum that computes to 0x0000 is written
// 0xFFFF. UpdateUDP (IPv4) and UpdateUDP6 (IPv6) keep the two rules apart
// by name, FinishUDP serves both, and VerifyUDP takes the family from the
// addresses. RFC 8200 §8.1's opt-in to zero checksums for tunnels (RFC
// 6935, RFC 6936) is not the default these functions implement.

// FinishUDP returns the value to write into a UDP checksum field (over IPv4
// or IPv6) for sum, the Sum of the pseudo-header (PseudoHeaderSum), the UDP
// header with its checksum field zero, and the data: ^sum, except that a
// result of 0x0000 is written 0xFFFF (RFC 768; RFC 8200 §8.1). FinishUDP
// never returns 0x0000, which would mean "no checksum" over IPv4 and an
// invalid datagram over IPv6.
func FinishUDP(sum uint16) uint16 {
	if sum == 0xffff {
		return 0xffff
	}
	return ^sum
}

// UpdateUDP returns the checksum field of a UDP datagram over IPv4 after a
// 16-bit word it covers (in the header, the data, or the pseudo-header, such
// as half of an address a NAT rewrites) changes from old to new.
//
// A field of 0x0000 means that the sender computed no checksum (RFC 768):
// it is returned unchanged, since updating it would invent a checksum of
// data it never covered (which Update does, and receivers then reject). Any
// other field is updated by RFC 1624 Eqn. 3, as Update does, and a result of
// 0x0000 comes out as 0xFFFF (RFC 768); so UpdateUDP returns 0x0000 only for
// a field of 0x0000. Over IPv6, where a zero field is invalid, use
// UpdateUDP6.
func UpdateUDP(checksum, old, new uint16) uint16 {
	if checksum == 0 {
		return 0
	}
	// Eqn. 3 is ~fold(~HC + ~m + m'): finishing the folded sum for UDP
	// is Update followed by the 0x0000 → 0xFFFF rule, in one step.
	return FinishUDP(fold32(uint32(^checksum) + uint32(^old) + uint32(new)))
}

// UpdateUDP6 is UpdateUDP for a UDP datagram over IPv6, where the checksum
// is mandatory (RFC 8200 §8.1): a field of 0x0000 marks a datagram that
// receivers must discard, so UpdateUDP6 returns 0, false for it. For any
// other field it returns the updated field, never 0x0000, and true.
func UpdateUDP6(checksum, old, new uint16) (uint16, bool) {
	if checksum == 0 {
		return 0, false
	}
	return FinishUDP(fold32(uint32(^checksum) + uint32(^old) + uint32(new))), true
}

// VerifyUDP reports whether a received UDP datagram passes its checksum
// check under the rule of its IP version, taken from the addresses as
// PseudoHeaderSum takes it (an IPv4-mapped address is IPv4). src and
// dst are its addresses (over IPv6 with a Routing header, the final
// destination) and segment is the UDP header and data, exactly as long as
// the length in the pseudo-header (the Length field, RFC 768; for an RFC
// 2675 jumbogram, whose Length field is 0, the real length). It does not
// read the Length field.
//
//   - A segment shorter than the 8-byte header, or addresses without a
//     pseudo-header (see PseudoHeaderSum: a zero netip.Addr, an IPv4
//     address, plain or mapped, with a true IPv6 one, IPv4 with more than
//     0xFFFF bytes), fails.
//   - A checksum field of 0x0000 passes over IPv4, mapped addresses
//     included ("no checksum", RFC 768; RFC 1122 §4.1.3.4 discards only a
//     non-zero invalid one), and fails over IPv6 (RFC 8200 §8.1), whatever
//     the data sums to.
//   - Any other field passes if the pseudo-header and segment, checksum
//     field included, sum to 0xFFFF (RFC 1071 §1).
//
// It reads only segment, never panics and never allocates.
func VerifyUDP(src, dst netip.Addr, segment []byte) bool {
	ph, verdict, decided := verifyUDPHeader(src, dst, segment)
	if decided {
		return verdict
	}
	return Sum(segment, ph) == 0xffff // a direct call, not through a function value
}

// VerifyUDP works like the package's VerifyUDP, summing the segment with
// i.Sum. i must be Available.
func (i Impl) VerifyUDP(src, dst netip.Addr, segment []byte) bool {
	ph, verdict, decided := verifyUDPHeader(src, dst, segment)
	if decided {
		return verdict
	}
	return i.Sum(segment, ph) == 0xffff
}

// verifyUDPHeader is VerifyUDP up to the sum of the segment: it returns the
// pseudo-header's sum, or decided == true with the verdict where the
// length, the addresses or a zero checksum field settle it.
func verifyUDPHeader(src, dst netip.Addr, segment []byte) (ph uint16, verdict, decided bool) {
	if len(segment) < 8 || uint64(len(segment)) > math.MaxUint32 {
		return 0, false, true
	}
	ph, ok := PseudoHeaderSum(src, dst, 17, uint32(len(segment)))
	if !ok {
		return 0, false, true
	}
	if segment[6]|segment[7] == 0 {
		// RFC 768: none computed (IPv4, mapped addresses included, as
		// PseudoHeaderSum takes them); RFC 8200 §8.1: invalid (IPv6).
		return 0, src.Unmap().Is4(), true
	}
	return ph, false, false
}
