package checksum

import (
	"encoding/binary"
	"net/netip"
)

// PseudoHeaderSum returns the Sum of the pseudo-header that the TCP and UDP
// checksums cover besides the segment itself (RFC 768, RFC 9293 §3.1, and
// RFC 8200 §8.1 for IPv6): the value to pass as Sum's initial value when
// summing the TCP or UDP header and data. proto is the protocol number (6
// for TCP, 17 for UDP; for IPv6 the upper-layer Next Header, not that of an
// extension header) and length the length of the TCP or UDP header and data
// in bytes (for UDP, its Length field; for an RFC 2675 jumbogram, the real
// length).
//
// The address family decides the layout. An IPv4-mapped IPv6 address
// (::ffff:a.b.c.d, what a dual-stack socket reports for an IPv4 peer, and
// what netip.AddrFromSlice makes of a net.IP from net.ParseIP) is taken
// for the IPv4 address it maps, as netip.Addr.Unmap gives it: RFC 4291
// §2.5.5.2 defines it "to represent the addresses of IPv4 nodes as IPv6
// addresses", and under RFC 3493 §3.7 an AF_INET6 socket sends UDP
// datagrams to IPv4 nodes, and receives theirs, with the peer's address in
// this form: those datagrams travel over IPv4, so their pseudo-header and
// their zero-checksum rule are IPv4's. A zone on a mapped address goes with
// the mapping. After unmapping:
//
//   - src and dst both IPv4 (netip.Addr.Is4): the 12-byte IPv4 pseudo-header,
//     whose length field has 16 bits; a length above 0xFFFF cannot be
//     represented (no IPv4 datagram is that long), and ok is false. This
//     holds whether each address was given plain or mapped: 192.0.2.1 and
//     ::ffff:192.0.2.2 are one family.
//   - src and dst both IPv6 (Is6, not IPv4-mapped): the 40-byte IPv6
//     pseudo-header, with a 32-bit Upper-Layer Packet Length, so every
//     length is valid. A zone (fe80::1%eth0) is not part of the address on
//     the wire and is ignored.
//   - anything else (a zero netip.Addr, or one IPv4 address, plain or
//     mapped, and one true IPv6 address): no datagram has such a pair of
//     addresses, there is no pseudo-header, and ok is false.
//
// When ok is false, sum is 0. PseudoHeaderSum never panics. The result is
// 0x0000 only when every field is zero (unspecified addresses, protocol 0,
// length 0): the pseudo-header of TCP or UDP always sums to a nonzero value.
func PseudoHeaderSum(src, dst netip.Addr, proto uint8, length uint32) (sum uint16, ok bool) {
	// RFC 4291 §2.5.5.2: ::ffff:a.b.c.d is the IPv4 node a.b.c.d.
	src, dst = src.Unmap(), dst.Unmap()
	switch {
	case src.Is4() && dst.Is4():
		if length > 0xffff {
			return 0, false
		}
		ph := pseudoHeader4(src.As4(), dst.As4(), proto, uint16(length))
		return Sum(ph[:], 0), true
	case src.Is6() && dst.Is6():
		ph := pseudoHeader6(src.As16(), dst.As16(), proto, length)
		return Sum(ph[:], 0), true
	}
	return 0, false
}

// pseudoHeader4 lays out the IPv4 pseudo-header of RFC 768 and RFC 9293
// §3.1 (Figure 2), field by field.
func pseudoHeader4(src, dst [4]byte, proto uint8, length uint16) [12]byte {
	var ph [12]byte
	//  +--------+--------+--------+--------+
	//  |           Source Address          |
	//  +--------+--------+--------+--------+
	copy(ph[0:4], src[:])
	//  |         Destination Address       |
	//  +--------+--------+--------+--------+
	copy(ph[4:8], dst[:])
	//  |  zero  |  PTCL  |    TCP Length   |
	//  +--------+--------+--------+--------+
	//
	// RFC 9293 §3.1: "zero: bits set to zero"; "PTCL: the protocol number
	// from the IP header"; "TCP Length: the TCP header length plus the
	// data length in octets". RFC 768 has the same layout, with the UDP
	// length.
	ph[8] = 0
	ph[9] = proto
	binary.BigEndian.PutUint16(ph[10:12], length)
	return ph
}

// pseudoHeader6 lays out the IPv6 pseudo-header of RFC 8200 §8.1, field by
// field.
func pseudoHeader6(src, dst [16]byte, proto uint8, length uint32) [40]byte {
	var ph [40]byte
	//  +                         Source Address                        +
	copy(ph[0:16], src[:])
	//  +                      Destination Address                      +
	copy(ph[16:32], dst[:])
	//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	//  |                   Upper-Layer Packet Length                   |
	//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	//
	// RFC 8200 §8.1: 32 bits, so that RFC 2675 jumbograms (payloads
	// longer than 65,535 bytes) are covered; RFC 9293 §3.1 calls it "a
	// 32-bit value otherwise equivalent to TCP Length in the IPv4
	// pseudo-header".
	binary.BigEndian.PutUint32(ph[32:36], length)
	//  |                      zero                     |  Next Header  |
	//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	ph[36], ph[37], ph[38] = 0, 0, 0
	ph[39] = proto
	return ph
}
