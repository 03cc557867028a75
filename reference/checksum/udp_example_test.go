package checksum_test

import (
	"encoding/binary"
	"fmt"
	"net/netip"

	"github.com/equivcheck/equivcheck/reference/checksum"
)

// A UDP datagram from 192.168.0.1:1024 to 192.168.0.199:53 carrying "hi":
// the checksum covers the pseudo-header, the header (checksum field zero)
// and the data.
func ExampleFinishUDP() {
	src, dst := netip.MustParseAddr("192.168.0.1"), netip.MustParseAddr("192.168.0.199")
	seg := []byte{0x04, 0x00, 0x00, 0x35, 0x00, 0x0a, 0x00, 0x00, 'h', 'i'}

	ph, _ := checksum.PseudoHeaderSum(src, dst, 17, uint32(len(seg)))
	c := checksum.FinishUDP(checksum.Sum(seg, ph))
	checksum.Put(seg[6:], c)
	fmt.Printf("checksum %#04x\n", c)

	// A sum whose complement is 0x0000 goes on the wire as 0xffff: 0x0000
	// would mean "no checksum" (RFC 768), or an invalid datagram over IPv6.
	fmt.Printf("%#04x\n", checksum.FinishUDP(0xffff))
	// Output:
	// checksum 0x1123
	// 0xffff
}

// The pseudo-header sums of RFC 768 (IPv4) and RFC 8200 §8.1 (IPv6); the
// IPv6 length has 32 bits, for jumbograms, the IPv4 one 16. An IPv4-mapped
// address, the form in which a dual-stack socket reports an IPv4 peer, is
// IPv4 (RFC 4291 §2.5.5.2); an IPv4 and an IPv6 address have no
// pseudo-header.
func ExamplePseudoHeaderSum() {
	ip := netip.MustParseAddr
	show := func(sum uint16, ok bool) { fmt.Printf("%#04x %v\n", sum, ok) }
	show(checksum.PseudoHeaderSum(ip("192.168.0.1"), ip("192.168.0.199"), 17, 95))
	show(checksum.PseudoHeaderSum(ip("2001:db8::1"), ip("2001:db8::2"), 17, 0x12345))
	show(checksum.PseudoHeaderSum(ip("192.168.0.1"), ip("192.168.0.199"), 6, 1<<16))
	show(checksum.PseudoHeaderSum(ip("::ffff:192.168.0.1"), ip("::ffff:192.168.0.199"), 17, 95))
	show(checksum.PseudoHeaderSum(ip("::ffff:192.168.0.1"), ip("2001:db8::2"), 17, 8))
	// Output:
	// 0x8289 true
	// 0x7ecc true
	// 0x0000 false
	// 0x8289 true
	// 0x0000 false
}

// A NAT rewrites the source of the datagram of ExampleFinishUDP from
// 192.168.0.1 to 10.0.0.1: the first word of the address, c0a8, becomes
// 0a00, and the checksum follows. A VXLAN sender's checksum of 0 ("none")
// stays 0.
func ExampleUpdateUDP() {
	fmt.Printf("%#04x\n", checksum.UpdateUDP(0x1123, 0xc0a8, 0x0a00))
	fmt.Printf("%#04x\n", checksum.UpdateUDP(0x0000, 0xc0a8, 0x0a00))
	// RFC 1624 §4's update computes 0x0000, which UDP sends as 0xffff.
	fmt.Printf("%#04x\n", checksum.UpdateUDP(0xdd2f, 0x5555, 0x3285))
	// Output:
	// 0xc7cb
	// 0x0000
	// 0xffff
}

// Over IPv6 the checksum is mandatory: a datagram whose checksum is 0 is
// invalid, and UpdateUDP6 says so instead of forwarding it.
func ExampleUpdateUDP6() {
	show := func(c uint16, ok bool) { fmt.Printf("%#04x %v\n", c, ok) }
	show(checksum.UpdateUDP6(0x1123, 0xc0a8, 0x0a00))
	show(checksum.UpdateUDP6(0x0000, 0xc0a8, 0x0a00))
	// Output:
	// 0xc7cb true
	// 0x0000 false
}

// VerifyUDP applies the zero rule of the addresses' family: a checksum
// of 0 is "none" over IPv4, IPv4-mapped addresses included, and invalid
// over IPv6.
func ExampleVerifyUDP() {
	v4src, v4dst := netip.MustParseAddr("192.168.0.1"), netip.MustParseAddr("192.168.0.199")
	v6src, v6dst := netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2")
	seg := []byte{0x04, 0x00, 0x00, 0x35, 0x00, 0x0a, 0x11, 0x23, 'h', 'i'}
	fmt.Println(checksum.VerifyUDP(v4src, v4dst, seg))
	seg[9] = 'o' // corrupted in transit
	fmt.Println(checksum.VerifyUDP(v4src, v4dst, seg))
	binary.BigEndian.PutUint16(seg[6:], 0) // sent without a checksum
	fmt.Println(checksum.VerifyUDP(v4src, v4dst, seg), checksum.VerifyUDP(v6src, v6dst, seg))
	// A dual-stack socket reports the IPv4 peer as ::ffff:192.168.0.1
	// (RFC 3493 §3.7): still IPv4, where 0 means "none".
	m4src, m4dst := netip.MustParseAddr("::ffff:192.168.0.1"), netip.MustParseAddr("::ffff:192.168.0.199")
	fmt.Println(checksum.VerifyUDP(m4src, m4dst, seg))
	// Output:
	// true
	// false
	// true false
	// true
}

// Combine joins the sums of adjacent pieces, here RFC 1071 §3's example
// split after its third byte, so that the second piece starts at an odd
// offset.
func ExampleCombine() {
	data := []byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}
	first, second := checksum.Sum(data[:3], 0), checksum.Sum(data[3:], 0)
	fmt.Printf("%#04x\n", checksum.Combine(first, second, 3))
	fmt.Printf("%#04x\n", checksum.Sum(data, 0))
	// Output:
	// 0xddf2
	// 0xddf2
}

// Put writes a checksum in network byte order, and nothing into a buffer
// too short for it.
func ExamplePut() {
	hdr := make([]byte, 8)
	fmt.Println(checksum.Put(hdr[6:], 0x1123), hdr)
	fmt.Println(checksum.Put(hdr[7:], 0xffff), hdr)
	// Output:
	// true [0 0 0 0 0 0 17 35]
	// false [0 0 0 0 0 0 17 35]
}
