package checksum

import (
	"encoding/binary"
	"math"
	"net/netip"
)

// The UDP checksum field has two rules that the TCP, IPv4 and ICMP fields do
// not have (RFC 768, "Fields"):
//
//	If the computed checksum is zero, it is transmitted as all ones (the
//	equivalent in one's complement arithmetic). An all zero transmitted
//	checksum value means that the transmitter generated no checksum (for
//	debugging or for higher level protocols that don't care).
//
// and one that depends on the IP version (RFC 8200 §8.1):
//
//	Unlike IPv4, the default behavior when UDP packets are originated by an
//	IPv6 node is that the UDP checksum is not optional. [...] IPv6
//	receivers must discard UDP packets containing a zero checksum [...]
//
// So over IPv4 a field of 0x0000 means "none" and must be carried as is,
// while over IPv6 it makes the datagram invalid; over both, a checksum that
// computes to 0x0000 is written 0xFFFF. The functions below keep these rules
// apart by name: UpdateUDP for IPv4, UpdateUDP6 for IPv6, FinishUDP for
// both, and VerifyUDP takes the family from the addresses.
//
// RFC 8200 §8.1 lets tunnel protocols opt in to zero checksums over IPv6 on
// chosen ports (RFC 6935, RFC 6936); that opt-in is not the default these
// functions implement, and a caller that makes it checks the field itself.

// udpHeaderLen is the length of the UDP header (RFC 768): Source Port,
// Destination Port, Length and Checksum, 16 bits each.
const udpHeaderLen = 8

// udpProtocol is UDP's protocol number (RFC 768: "Protocol Number 17").
const udpProtocol = 17

// FinishUDP returns the value to write into a UDP checksum field, over IPv4
// or IPv6, given sum: the Sum of the pseudo-header (PseudoHeaderSum), the UDP
// header with its checksum field zero, and the data. It is the one's
// complement of sum, except that a complement of 0x0000 is returned as
// 0xFFFF, so FinishUDP never returns 0x0000 (which would mean "no checksum",
// RFC 768, or an invalid datagram, RFC 8200 §8.1).
func FinishUDP(sum uint16) uint16 {
	// RFC 768: "Checksum is the 16-bit one's complement of the one's
	// complement sum of a pseudo header of information from the IP header,
	// the UDP header, and the data".
	c := ^sum
	// RFC 768: "If the computed checksum is zero, it is transmitted as all
	// ones"; RFC 8200 §8.1: "if that computation yields a result of zero,
	// it must be changed to hex FFFF for placement in the UDP header."
	if c == 0 {
		return 0xffff
	}
	return c
}

// UpdateUDP returns the checksum field of a UDP datagram carried over IPv4
// after one 16-bit word that the checksum covers (in the UDP header, the
// data or the pseudo-header, such as half of an address a NAT rewrites)
// changes from old to new.
//
// A field of 0x0000 means that the sender computed no checksum (RFC 768):
// UpdateUDP returns it unchanged, because updating it would invent a
// checksum of data it never covered, which the receiver would then verify
// and reject. Any other field is updated by RFC 1624 Eqn. 3 (Update), and a
// result of 0x0000 is returned as 0xFFFF, as RFC 768 transmits a computed
// zero; so UpdateUDP returns 0x0000 only for a field of 0x0000.
//
// Over IPv6 a zero field is not "no checksum" but an invalid datagram: use
// UpdateUDP6 there.
func UpdateUDP(checksum, old, new uint16) uint16 {
	// RFC 768: "An all zero transmitted checksum value means that the
	// transmitter generated no checksum": there is nothing to update.
	if checksum == 0 {
		return 0
	}
	// RFC 1624 §3, Eqn. 3, then RFC 768's rule for a computed zero.
	c := Update(checksum, old, new)
	if c == 0 {
		return 0xffff
	}
	return c
}

// UpdateUDP6 is UpdateUDP for a UDP datagram carried over IPv6, where the
// checksum is mandatory (RFC 8200 §8.1): a field of 0x0000 marks a datagram
// that receivers must discard, so UpdateUDP6 returns 0, false for it instead
// of forwarding it as if it were valid. For any other field it returns the
// updated field, never 0x0000 (a computed zero becomes 0xFFFF), and true.
func UpdateUDP6(checksum, old, new uint16) (uint16, bool) {
	// RFC 8200 §8.1: "IPv6 receivers must discard UDP packets containing a
	// zero checksum".
	if checksum == 0 {
		return 0, false
	}
	// RFC 1624 §3, Eqn. 3, then RFC 8200 §8.1: "if that computation
	// yields a result of zero, it must be changed to hex FFFF".
	c := Update(checksum, old, new)
	if c == 0 {
		return 0xffff, true
	}
	return c, true
}

// VerifyUDP reports whether a received UDP datagram passes its checksum
// check, with the rule of its IP version, which it takes from the addresses
// as PseudoHeaderSum does (an IPv4-mapped IPv6 address, such as a
// dual-stack socket reports for an IPv4 peer, is IPv4: RFC 4291 §2.5.5.2):
// src and dst are the datagram's source and destination addresses (for
// IPv6 with a Routing header, the final destination, RFC 8200 §8.1) and
// segment is the UDP header and data, exactly as long as the length that
// goes into the pseudo-header (the UDP Length field, RFC 768; for an RFC
// 2675 jumbogram, whose Length field is 0, the real length). VerifyUDP does
// not read the Length field.
//
//   - A segment shorter than the 8-byte header, or addresses that have no
//     pseudo-header (see PseudoHeaderSum: a zero netip.Addr, an IPv4
//     address, plain or mapped, with a true IPv6 one, or IPv4 with a
//     segment longer than 0xFFFF bytes), fails.
//   - A checksum field of 0x0000 passes over IPv4, mapped addresses
//     included, where it means no checksum was computed (RFC 768; RFC 1122
//     §4.1.3.4 discards only a "non-zero and invalid" checksum), and fails
//     over IPv6 (RFC 8200 §8.1), even if the data happens to sum so that it
//     would check.
//   - Any other field passes if the Sum of the pseudo-header and the
//     segment, checksum field included, is 0xFFFF (RFC 1071 §1).
//
// VerifyUDP reads segment and nothing else, and never panics.
func VerifyUDP(src, dst netip.Addr, segment []byte) bool {
	// RFC 4291 §2.5.5.2: ::ffff:a.b.c.d is the IPv4 node a.b.c.d, and its
	// datagrams are IPv4's (RFC 3493 §3.7).
	src, dst = src.Unmap(), dst.Unmap()
	if len(segment) < udpHeaderLen || uint64(len(segment)) > math.MaxUint32 {
		return false
	}
	ph, ok := PseudoHeaderSum(src, dst, udpProtocol, uint32(len(segment)))
	if !ok {
		return false
	}
	// RFC 768: Source Port (16), Destination Port (16), Length (16),
	// Checksum (16).
	if binary.BigEndian.Uint16(segment[6:8]) == 0 {
		// IPv4: RFC 768, "the transmitter generated no checksum", and
		// RFC 1122 §4.1.3.4: "If a UDP datagram is received with a
		// checksum that is non-zero and invalid, UDP MUST silently
		// discard the datagram" (so a zero one is kept). IPv6: RFC 8200
		// §8.1, "IPv6 receivers must discard UDP packets containing a
		// zero checksum".
		return src.Is4()
	}
	// RFC 1071 §1 (3): "To check a checksum, the 1's complement sum is
	// computed over the same set of octets, including the checksum field.
	// If the result is all 1 bits (-0 in 1's complement arithmetic), the
	// check succeeds."
	return Sum(segment, ph) == 0xffff
}
