package checksum

import (
	"encoding/binary"
	"net/netip"
	"runtime"
)

// PseudoHeaderSum returns the Sum of the pseudo-header that TCP and UDP
// checksums cover (RFC 768, RFC 9293 §3.1; RFC 8200 §8.1 for IPv6), to pass
// as Sum's initial value when summing the TCP or UDP header and data. proto
// is the protocol number (6 for TCP, 17 for UDP; over IPv6 the upper-layer
// Next Header) and length the length of the TCP or UDP header and data (for
// UDP its Length field; for an RFC 2675 jumbogram, the real length).
//
// The address family decides the layout, after an IPv4-mapped IPv6
// address (::ffff:a.b.c.d, as a dual-stack socket reports an IPv4 peer) is
// taken for the IPv4 address it maps, as netip.Addr.Unmap gives it (RFC
// 4291 §2.5.5.2; RFC 3493 §3.7: such a socket's datagrams to and from IPv4
// nodes are IPv4's; reference/checksum quotes the RFCs):
//
//   - both IPv4 (netip.Addr.Is4), each plain or mapped: the 12-byte IPv4
//     pseudo-header. Its length field has 16 bits, so a length above 0xFFFF
//     (longer than any IPv4 datagram) gives ok == false rather than a
//     truncated sum.
//   - both IPv6 (Is6, not IPv4-mapped): the 40-byte IPv6 pseudo-header,
//     whose Upper-Layer Packet Length has 32 bits, so every length is valid.
//     A zone is not on the wire and is ignored.
//   - anything else (a zero netip.Addr, or an IPv4 address, plain or
//     mapped, with a true IPv6 one): ok == false.
//
// When ok is false, sum is 0. It never panics or allocates. gVisor's
// header.PseudoHeaderChecksum takes a 16-bit length, so it cannot express
// a jumbogram's, and sums whatever address bytes it is given.
//
// The pseudo-header is summed as whole big-endian words: each 64-bit (IPv6)
// or 32-bit (IPv4) piece of an address is ≡ the sum of its 16-bit words
// (mod 0xFFFF, since 2^16 ≡ 1), the 64-bit pieces are added with end-around
// carry, and fold64 reduces once; so the result is the reference's bit for
// bit, 0x0000 only when every field is zero.
//
// The addresses' bytes come from AsSlice, whose length also tells the
// family (0 for the zero Addr, 4 for IPv4, 16 for IPv6, exactly as Is4 and
// Is6 do; unmap then turns an IPv4-mapped address's 16 bytes into the 4 of
// its IPv4 address), and not from As16: the [16]byte that As16 returns is
// copied with one 16-byte load of two 8-byte stores, which the CPU cannot
// forward, and that stall made the IPv6 case about 4 times slower (33-43 ns
// against 8-14 ns per call in the same run, loaded machine) while AsSlice's
// bytes are read back 8 at a time from where they were stored. AsSlice
// does not allocate here, since the slices do not escape
// (TestHelpersAllocateNothing). BenchmarkPseudoHeader in bench/ compares
// this with gVisor's header.PseudoHeaderChecksum.
func PseudoHeaderSum(src, dst netip.Addr, proto uint8, length uint32) (sum uint16, ok bool) {
	var s, d []byte
	if runtime.GOARCH == "amd64" {
		s, d = src.AsSlice(), dst.AsSlice()
	} else {
		// Elsewhere (wasm, measured under wazero) AsSlice's array moves
		// to the heap: 2 allocations a call. As16's arrays stay here.
		sa, da := src.As16(), dst.As16()
		s, d = addrBytes(src, sa[:]), addrBytes(dst, da[:])
	}
	s, d = unmap(s), unmap(d)
	switch {
	case len(s) == 4 && len(d) == 4:
		if length > 0xffff {
			return 0, false
		}
		// Source, destination, zero|PTCL, length: below 2^34.
		acc := uint64(binary.BigEndian.Uint32(s)) + uint64(binary.BigEndian.Uint32(d)) +
			uint64(proto) + uint64(length)
		return fold64(acc), true
	case len(s) == 16 && len(d) == 16:
		acc := addEAC(binary.BigEndian.Uint64(s[:8]), binary.BigEndian.Uint64(s[8:]))
		acc = addEAC(acc, binary.BigEndian.Uint64(d[:8]))
		acc = addEAC(acc, binary.BigEndian.Uint64(d[8:]))
		// The 32-bit length, and zero|Next Header.
		acc = addEAC(acc, uint64(length)+uint64(proto))
		return fold64(acc), true
	}
	return 0, false
}

// addrBytes is a's bytes within its As16 form b: the last 4 for an IPv4
// address, all 16 for IPv6, none for the zero Addr (as AsSlice gives them).
func addrBytes(a netip.Addr, b []byte) []byte {
	switch {
	case a.Is4():
		return b[12:]
	case a.Is6():
		return b
	}
	return nil
}

// unmap returns the 4 bytes of the IPv4 address that b, an address's
// bytes as AsSlice gives them, maps if it is IPv4-mapped (80 zero bits,
// then 16 one bits: RFC 4291 §2.5.5.2), as netip.Addr.Unmap does; or b.
// It costs a plain IPv4 address one compare of its length: in one run of
// BenchmarkPseudoHeader (bench/, loaded 2-core machine) the IPv4 case went
// from 3.3 to 3.4 ns a call with it and to 3.9 ns with Unmap on both Addrs
// first, the IPv6 case from 4.4 to 4.9 ns with either.
func unmap(b []byte) []byte {
	if len(b) == 16 && binary.BigEndian.Uint64(b) == 0 && binary.BigEndian.Uint32(b[8:]) == 0xffff {
		return b[12:]
	}
	return b
}
