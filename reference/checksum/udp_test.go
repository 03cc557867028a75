package checksum

import (
	"net/netip"
	"testing"
)

// The oracle's own vectors for the UDP rules, the pseudo-headers, Combine
// and Put, each computed by hand in its comment; the conformance suite in
// equiv checks them too.

// mapped is a's IPv4-mapped IPv6 form (::ffff:a.b.c.d), as a dual-stack
// socket or netip.AddrFromSlice(net.ParseIP(…)) gives it.
func mapped(a netip.Addr) netip.Addr { return netip.AddrFrom16(a.As16()) }

var (
	v4src = netip.MustParseAddr("192.168.0.1")
	v4dst = netip.MustParseAddr("192.168.0.199")
	v6src = netip.MustParseAddr("2001:db8::1")
	v6dst = netip.MustParseAddr("2001:db8::2")
)

func TestPseudoHeaderVectors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		src, dst netip.Addr
		proto    uint8
		length   uint32
		sum      uint16
		ok       bool
	}{
		// c0a8 + 0001 + c0a8 + 00c7 + 0011 + 005f = 0x18288 → 0x8289.
		{"IPv4 UDP, length 95", v4src, v4dst, 17, 95, 0x8289, true},
		// 2001 + 0db8 + 0001 + 2001 + 0db8 + 0002 + 0000 + 0008 + 0011.
		{"IPv6 UDP, length 8", v6src, v6dst, 17, 8, 0x5b8e, true},
		// RFC 2675 jumbogram: the 32-bit length 0x00012345 adds 0001 + 2345;
		// truncating it to 16 bits would give 0x7ecb.
		{"IPv6 jumbogram", v6src, v6dst, 17, 0x12345, 0x7ecc, true},
		// The IPv4 length field has 16 bits: 0xffff is its largest value,
		// c0a8 + 0001 + c0a8 + 00c7 + 0006 + ffff = 0x2821d → 0x821f.
		{"IPv4 length 2^16", v4src, v4dst, 6, 1 << 16, 0, false},
		{"IPv4 length 0xffff", v4src, v4dst, 6, 0xffff, 0x821f, true},
		// Every field zero: the only pseudo-header that sums to 0x0000.
		{"IPv4 all zero", netip.IPv4Unspecified(), netip.IPv4Unspecified(), 0, 0, 0, true},
		{"IPv6 all zero", netip.IPv6Unspecified(), netip.IPv6Unspecified(), 0, 0, 0, true},
		// RFC 4291 §2.5.5.2: an IPv4-mapped address is the IPv4 address it
		// maps, so ::ffff:0.0.0.0 gives IPv4's all-zero pseudo-header, 0x0000
		// (as IPv6 its two 0xffff words would make it 0xffff).
		{"IPv4-mapped unspecified", mapped(netip.IPv4Unspecified()), mapped(netip.IPv4Unspecified()), 0, 0, 0, true},
		// The IPv4 layout and sum of "IPv4 UDP, length 95", and its limit.
		{"IPv4-mapped UDP, length 95", mapped(v4src), mapped(v4dst), 17, 95, 0x8289, true},
		{"IPv4-mapped length 2^16", mapped(v4src), mapped(v4dst), 6, 1 << 16, 0, false},
		// One plain, one mapped: one family. c0a8 + 0001 + c0a8 + 00c7 +
		// 0011 + 0008 = 0x18232 → 0x8232.
		{"IPv4 and IPv4-mapped", v4src, mapped(v4dst), 17, 8, 0x8232, true},
		{"IPv4-mapped and IPv4", mapped(v4src), v4dst, 17, 8, 0x8232, true},
		// A zone goes with the mapping (netip.Addr.Unmap).
		{"IPv4-mapped with zone", mapped(v4src).WithZone("eth0"), v4dst, 17, 8, 0x8232, true},
		{"mixed families", v4src, v6dst, 17, 8, 0, false},
		{"IPv4-mapped and IPv6", mapped(v4src), v6dst, 17, 8, 0, false},
		{"zero Addr", netip.Addr{}, v4dst, 17, 8, 0, false},
		// A zone is not on the wire.
		{"IPv6 with zone", v6src.WithZone("eth0"), v6dst, 17, 8, 0x5b8e, true},
	} {
		sum, ok := PseudoHeaderSum(tc.src, tc.dst, tc.proto, tc.length)
		if sum != tc.sum || ok != tc.ok {
			t.Errorf("%s: PseudoHeaderSum = %#04x, %v, want %#04x, %v", tc.name, sum, ok, tc.sum, tc.ok)
		}
	}
}

// udpHi is a UDP datagram from port 1024 to 53 with the data "hi":
// 0400 0035 000a <checksum> 6869. Over v4src → v4dst its pseudo-header sums
// to c0a8 + 0001 + c0a8 + 00c7 + 0011 + 000a → 0x8234, the header and data
// (checksum zero) to 0x6ca8, together 0xeedc: the checksum is 0x1123.
func udpHi(checksum uint16) []byte {
	return []byte{0x04, 0x00, 0x00, 0x35, 0x00, 0x0a, byte(checksum >> 8), byte(checksum), 'h', 'i'}
}

func TestUDPVectors(t *testing.T) {
	ph, _ := PseudoHeaderSum(v4src, v4dst, 17, 10)
	if got := FinishUDP(Sum(udpHi(0), ph)); got != 0x1123 {
		t.Errorf("FinishUDP(udpHi) = %#04x, want 0x1123", got)
	}
	if !VerifyUDP(v4src, v4dst, udpHi(0x1123)) || VerifyUDP(v4src, v4dst, udpHi(0x1124)) {
		t.Errorf("VerifyUDP accepts the wrong checksum or rejects the right one")
	}
	// RFC 768: a zero field is "no checksum" over IPv4; RFC 8200 §8.1: a
	// zero field is discarded over IPv6.
	if !VerifyUDP(v4src, v4dst, udpHi(0)) {
		t.Errorf("VerifyUDP(IPv4, checksum 0) = false, want true")
	}
	// RFC 4291 §2.5.5.2, RFC 3493 §3.7: from a dual-stack socket the same
	// IPv4 datagrams come with IPv4-mapped addresses, and follow IPv4's
	// rules (RFC 1122 §4.1.3.4 discards only a non-zero invalid checksum).
	for _, a := range [][2]netip.Addr{{mapped(v4src), mapped(v4dst)}, {v4src, mapped(v4dst)}, {mapped(v4src), v4dst}} {
		if !VerifyUDP(a[0], a[1], udpHi(0)) || !VerifyUDP(a[0], a[1], udpHi(0x1123)) || VerifyUDP(a[0], a[1], udpHi(0x1124)) {
			t.Errorf("VerifyUDP(%v → %v) with checksums 0, 0x1123, 0x1124 = %v, %v, %v, want true, true, false", a[0], a[1],
				VerifyUDP(a[0], a[1], udpHi(0)), VerifyUDP(a[0], a[1], udpHi(0x1123)), VerifyUDP(a[0], a[1], udpHi(0x1124)))
		}
	}
	if VerifyUDP(mapped(v4src), v6dst, udpHi(0)) || VerifyUDP(v6src, mapped(v4dst), udpHi(0x1123)) {
		t.Errorf("VerifyUDP with an IPv4-mapped and an IPv6 address = true, want false (no pseudo-header)")
	}
	// Data a0 30 over IPv6: the pseudo-header (length 10) sums to 0x5b90,
	// the header to 0x043f, the data to 0xa030: 0xffff in all, so the
	// computed checksum is zero and is sent as 0xffff, and a zero field
	// would sum to 0xffff too, yet must be rejected.
	trap := []byte{0x04, 0x00, 0x00, 0x35, 0x00, 0x0a, 0, 0, 0xa0, 0x30}
	ph6, _ := PseudoHeaderSum(v6src, v6dst, 17, 10)
	if s := Sum(trap, ph6); s != 0xffff || FinishUDP(s) != 0xffff {
		t.Errorf("trap sums to %#04x, finished %#04x, want 0xffff and 0xffff", s, FinishUDP(s))
	}
	if VerifyUDP(v6src, v6dst, trap) {
		t.Errorf("VerifyUDP(IPv6, checksum 0) = true, want false")
	}
	trap[6], trap[7] = 0xff, 0xff
	if !VerifyUDP(v6src, v6dst, trap) {
		t.Errorf("VerifyUDP(IPv6, checksum 0xffff) = false, want true")
	}
	if VerifyUDP(v4src, v4dst, udpHi(0)[:7]) {
		t.Errorf("VerifyUDP of 7 bytes = true, want false")
	}
	// NAT: 192.168.0.1 → 10.0.0.1 changes the word c0a8 to 0a00; the new
	// pseudo-header sums to 0xcb8b, plus 0x6ca8 is 0x3834: checksum 0xc7cb.
	if got := UpdateUDP(0x1123, 0xc0a8, 0x0a00); got != 0xc7cb {
		t.Errorf("UpdateUDP(NAT) = %#04x, want 0xc7cb", got)
	}
	// RFC 1624 §4: Eqn. 3 gives 0x0000, which UDP sends as 0xffff.
	if got := UpdateUDP(0xdd2f, 0x5555, 0x3285); got != 0xffff {
		t.Errorf("UpdateUDP(RFC 1624 §4) = %#04x, want 0xffff", got)
	}
	if got := UpdateUDP(0, 0x5555, 0x3285); got != 0 {
		t.Errorf("UpdateUDP(0, …) = %#04x, want 0 (no checksum)", got)
	}
	if got, ok := UpdateUDP6(0, 0x5555, 0x3285); got != 0 || ok {
		t.Errorf("UpdateUDP6(0, …) = %#04x, %v, want 0, false", got, ok)
	}
	if got, ok := UpdateUDP6(0xdd2f, 0x5555, 0x3285); got != 0xffff || !ok {
		t.Errorf("UpdateUDP6(RFC 1624 §4) = %#04x, %v, want 0xffff, true", got, ok)
	}
	if FinishUDP(0xffff) != 0xffff || FinishUDP(0) != 0xffff || FinishUDP(0xddf2) != 0x220d {
		t.Errorf("FinishUDP(0xffff, 0, 0xddf2) = %#04x, %#04x, %#04x", FinishUDP(0xffff), FinishUDP(0), FinishUDP(0xddf2))
	}
}

func TestCombineVectors(t *testing.T) {
	// RFC 1071 §3's example split at every offset. At 3: 00 01 f2 sums to
	// 0xf201, 03 f4 f5 f6 f7 to 0xf0eb, swapped 0xebf0; 0xf201 + 0xebf0 =
	// 0x1ddf1 → 0xddf2.
	d := []byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}
	for k := 0; k <= len(d); k++ {
		if got := Combine(Sum(d[:k], 0), Sum(d[k:], 0), k); got != 0xddf2 {
			t.Errorf("Combine at %d = %#04x, want 0xddf2", k, got)
		}
	}
	if got := Combine(0xf201, 0xf0eb, -1); got != 0xddf2 {
		t.Errorf("Combine at offset -1 = %#04x, want 0xddf2", got)
	}
	if Combine(0, 0, 1) != 0 || Combine(0xffff, 0, 0) != 0xffff || Combine(0xffff, 0xffff, 1) != 0xffff {
		t.Errorf("Combine loses the 0x0000/0xffff distinction")
	}
}

func TestPut(t *testing.T) {
	b := []byte{1, 2, 3}
	if !Put(b, 0x220d) || b[0] != 0x22 || b[1] != 0x0d || b[2] != 3 {
		t.Errorf("Put(3 bytes, 0x220d) wrote %x", b)
	}
	if Put(b[:1], 0xffff) || b[0] != 0x22 {
		t.Errorf("Put(1 byte) wrote %x or reported true", b)
	}
	if Put(nil, 0) {
		t.Errorf("Put(nil) = true")
	}
}

// TestUDPHeaderOnly: a datagram of exactly the 8-byte header (no data) is
// valid. 0400 0035 0008 over v4src → v4dst: the pseudo-header sums to
// c0a8 + 0001 + c0a8 + 00c7 + 0011 + 0008 = 0x18231 → 0x8232, the header
// to 0x043d, together 0x866f: the checksum is 0x7990.
func TestUDPHeaderOnly(t *testing.T) {
	seg := []byte{0x04, 0x00, 0x00, 0x35, 0x00, 0x08, 0x79, 0x90}
	if !VerifyUDP(v4src, v4dst, seg) {
		t.Errorf("VerifyUDP(8-byte datagram, checksum 0x7990) = false, want true")
	}
	seg[7]++
	if VerifyUDP(v4src, v4dst, seg) {
		t.Errorf("VerifyUDP(8-byte datagram, checksum 0x7991) = true, want false")
	}
}
