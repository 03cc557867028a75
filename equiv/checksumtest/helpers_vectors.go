package checksumtest

import (
	"bytes"
	"fmt"
	"math"
	"net/netip"
	"strconv"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// helperVector is an input of a helper with its result worked out by hand
// from the RFCs, in the form the checker reports results.
type helperVector struct {
	source string
	in     Input
	want   string
}

var (
	// The addresses of the worked examples.
	v4src = netip.AddrFrom4([4]byte{192, 168, 0, 1})
	v4dst = netip.AddrFrom4([4]byte{192, 168, 0, 199})
	v4nat = netip.AddrFrom4([4]byte{10, 0, 0, 1})
	v6src = netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 15: 1}) // 2001:db8::1
	v6dst = netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 15: 2}) // 2001:db8::2
	// ::ffff:0.0.0.0, the IPv4 address 0.0.0.0 (RFC 4291 §2.5.5.2).
	mappedZero = netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff})
)

// mapped is a's IPv4-mapped IPv6 form, ::ffff:a.b.c.d: how a dual-stack
// socket reports an IPv4 peer (RFC 3493 §3.7), and what
// netip.AddrFromSlice makes of net.ParseIP("a.b.c.d").
func mapped(a netip.Addr) netip.Addr { return netip.AddrFrom16(a.As16()) }

// udpHi is a UDP datagram from port 1024 to 53 with the data "hi":
// 0400 0035 000a <checksum> 6869. From v4src to v4dst its pseudo-header sums
// to c0a8 + 0001 + c0a8 + 00c7 + 0011 + 000a → 0x8234, and the header and
// data (checksum zero) to 0x6ca8: 0xeedc in all, so its checksum is 0x1123.
func udpHi(checksum uint16) []byte {
	return []byte{0x04, 0x00, 0x00, 0x35, 0x00, 0x0a, byte(checksum >> 8), byte(checksum), 'h', 'i'}
}

// udpTrap6 is a UDP datagram from port 1024 to 53 whose data a0 30 makes
// the checksum computed from v6src to v6dst zero: the pseudo-header
// (length 10) sums to 2001 + 0db8 + 0001 + 2001 + 0db8 + 0002 + 000a + 0011
// = 0x5b90, the header to 0x043f, the data to 0xa030, 0xffff in all. So the
// field must be 0xffff (RFC 8200 §8.1), and a field of 0 sums to 0xffff as
// well, but must be rejected.
func udpTrap6(checksum uint16) []byte {
	return []byte{0x04, 0x00, 0x00, 0x35, 0x00, 0x0a, byte(checksum >> 8), byte(checksum), 0xa0, 0x30}
}

// helperVectors are the helpers' worked examples.
func helperVectors() []helperVector {
	pseudo := func(src, dst netip.Addr, proto uint8, length uint32) Input {
		return Input{Func: "PseudoHeaderSum", Src: src, Dst: dst, Proto: proto, Length: length}
	}
	verify := func(src, dst netip.Addr, seg []byte) Input {
		return Input{Func: "VerifyUDP", Src: src, Dst: dst, Data: seg}
	}
	u := func(fn string, hc, m, m2 uint16) Input { return Input{Func: fn, Update: [3]uint16{hc, m, m2}} }
	vs := []helperVector{
		// c0a8 + 0001 + c0a8 + 00c7 + 0011 + 005f = 0x18288 → 0x8289.
		{"IPv4 UDP pseudo-header (RFC 768)", pseudo(v4src, v4dst, 17, 95), "0x8289, true"},
		// c0a8 + 0001 + c0a8 + 00c7 + 0006 + ffff = 0x2821d → 0x821f.
		{"IPv4 TCP pseudo-header, longest length (RFC 9293 §3.1)", pseudo(v4src, v4dst, 6, 0xffff), "0x821f, true"},
		{"IPv4 length past 16 bits (RFC 9293 §3.1)", pseudo(v4src, v4dst, 6, 1<<16), "0x0000, false"},
		// 2001 + 0db8 + 0001 + 2001 + 0db8 + 0002 + 0000 + 0008 + 0011.
		{"IPv6 UDP pseudo-header (RFC 8200 §8.1)", pseudo(v6src, v6dst, 17, 8), "0x5b8e, true"},
		// The 32-bit length 0x00012345 adds 0001 + 2345; cut to 16 bits it
		// would give 0x7ecb.
		{"IPv6 jumbogram pseudo-header (RFC 2675, RFC 8200 §8.1)", pseudo(v6src, v6dst, 17, 0x12345), "0x7ecc, true"},
		{"IPv6 with a zone (not on the wire)", pseudo(v6src.WithZone(zone), v6dst, 17, 8), "0x5b8e, true"},
		{"all-zero IPv4 pseudo-header", pseudo(netip.IPv4Unspecified(), netip.IPv4Unspecified(), 0, 0), "0x0000, true"},
		// RFC 4291 §2.5.5.2: ::ffff:0.0.0.0 is 0.0.0.0, and the IPv4
		// pseudo-header of every field zero sums to 0x0000; taken for IPv6,
		// 0000 … ffff 0000 twice would sum to 0xffff.
		{"IPv4-mapped addresses are IPv4 (RFC 4291 §2.5.5.2)", pseudo(mappedZero, mappedZero, 0, 0), "0x0000, true"},
		// The IPv4 vectors above with both addresses mapped: the same sum,
		// and the same 16-bit length limit (as IPv6 it would be valid).
		{"IPv4-mapped UDP pseudo-header (RFC 768, RFC 3493 §3.7)", pseudo(mapped(v4src), mapped(v4dst), 17, 95), "0x8289, true"},
		{"IPv4-mapped length past 16 bits (RFC 9293 §3.1)", pseudo(mapped(v4src), mapped(v4dst), 6, 1<<16), "0x0000, false"},
		// One plain, one mapped: one family after unmapping. c0a8 + 0001 +
		// c0a8 + 00c7 + 0011 + 0008 = 0x18232 → 0x8232.
		{"IPv4 and IPv4-mapped are one family", pseudo(v4src, mapped(v4dst), 17, 8), "0x8232, true"},
		// netip.Addr.Unmap drops a zone with the mapping.
		{"IPv4-mapped with a zone, and IPv4", pseudo(mapped(v4src).WithZone(zone), v4dst, 17, 8), "0x8232, true"},
		{"mixed families", pseudo(v4src, v6dst, 17, 8), "0x0000, false"},
		{"IPv4-mapped and IPv6 are mixed", pseudo(mapped(v4src), v6dst, 17, 8), "0x0000, false"},
		{"zero Addr", pseudo(netip.Addr{}, v4dst, 17, 8), "0x0000, false"},

		{"RFC 1071 §3 checksum", Input{Func: "FinishUDP", Initial: 0xddf2}, "0x220d"},
		{"RFC 768: a computed zero is sent as all ones", Input{Func: "FinishUDP", Initial: 0xffff}, "0xffff"},
		{"FinishUDP of +0", Input{Func: "FinishUDP", Initial: 0x0000}, "0xffff"},
		{"udpHi's checksum", Input{Func: "FinishUDP", Initial: 0xeedc}, "0x1123"},

		// NAT, v4src → v4nat: the word c0a8 becomes 0a00; the new pseudo-
		// header sums to 0xcb8b, plus 0x6ca8 is 0x3834: checksum 0xc7cb.
		{"NAT of udpHi's source (RFC 1624 §3)", u("UpdateUDP", 0x1123, 0xc0a8, 0x0a00), "0xc7cb"},
		{"RFC 1624 §4, then RFC 768's all ones", u("UpdateUDP", 0xdd2f, 0x5555, 0x3285), "0xffff"},
		{"RFC 768: no checksum stays none", u("UpdateUDP", 0x0000, 0x5555, 0x3285), "0x0000"},
		{"udpHi's NAT triple, IPv6 rules", u("UpdateUDP6", 0x1123, 0xc0a8, 0x0a00), "0xc7cb, true"},
		{"RFC 1624 §4, then RFC 8200 §8.1's FFFF", u("UpdateUDP6", 0xdd2f, 0x5555, 0x3285), "0xffff, true"},
		{"RFC 8200 §8.1: a zero checksum is invalid", u("UpdateUDP6", 0x0000, 0x5555, 0x3285), "0x0000, false"},

		{"udpHi, right checksum", verify(v4src, v4dst, udpHi(0x1123)), "true"},
		{"udpHi, wrong checksum", verify(v4src, v4dst, udpHi(0x1124)), "false"},
		{"udpHi after NAT", verify(v4nat, v4dst, udpHi(0xc7cb)), "true"},
		{"RFC 768: no checksum over IPv4", verify(v4src, v4dst, udpHi(0)), "true"},
		{"RFC 8200 §8.1: no checksum over IPv6", verify(v6src, v6dst, udpHi(0)), "false"},
		{"RFC 8200 §8.1: zero field that sums right", verify(v6src, v6dst, udpTrap6(0)), "false"},
		{"RFC 8200 §8.1: computed zero sent as ffff", verify(v6src, v6dst, udpTrap6(0xffff)), "true"},
		{"shorter than a UDP header", verify(v4src, v4dst, udpHi(0x1123)[:7]), "false"},
		{"mixed families", verify(v4src, v6dst, udpHi(0x1123)), "false"},
		// Issue 25: the datagrams above as a dual-stack socket reports
		// them, from ::ffff:192.168.0.1 (RFC 3493 §3.7), are still IPv4's
		// (RFC 4291 §2.5.5.2), zero field included (RFC 768, RFC 1122
		// §4.1.3.4).
		{"RFC 768: no checksum between IPv4-mapped addresses", verify(mapped(v4src), mapped(v4dst), udpHi(0)), "true"},
		{"udpHi between IPv4-mapped addresses", verify(mapped(v4src), mapped(v4dst), udpHi(0x1123)), "true"},
		{"udpHi, IPv4 to IPv4-mapped", verify(v4src, mapped(v4dst), udpHi(0x1123)), "true"},
		{"RFC 768: no checksum, IPv4-mapped to IPv4", verify(mapped(v4src), v4dst, udpHi(0)), "true"},
		{"IPv4-mapped and IPv6 are mixed", verify(mapped(v4src), v6dst, udpHi(0)), "false"},

		{"RFC 1071 §3 checksum, network order", Input{Func: "Put", Data: []byte{0, 0}, Value: 0x220d}, "true, b = 220d"},
		{"Put leaves b[2:]", Input{Func: "Put", Data: []byte{0xaa, 0xbb, 0xcc}, Value: 0x220d}, "true, b = 220dcc"},
		{"Put into 1 byte", Input{Func: "Put", Data: []byte{0xaa}, Value: 0x220d}, "false, b = aa"},
		{"Put into nothing", Input{Func: "Put", Data: []byte{}, Value: 0x220d}, "false, b = "},
	}
	// RFC 1071 §3's example split at every offset sums to ddf2. At 3:
	// 00 01 f2 sums to f201, 03 f4 f5 f6 f7 to f0eb, swapped ebf0, and
	// f201 + ebf0 = 1ddf1 → ddf2 (unswapped it would be e2ed).
	rfc1071 := vectors[0].data
	for k := 0; k <= len(rfc1071); k++ {
		in := Input{Func: "Combine", Initial: ref.Sum(rfc1071[:k], 0), Value: ref.Sum(rfc1071[k:], 0), Offset: k}
		vs = append(vs, helperVector{"RFC 1071 §3 split at " + strconv.Itoa(k), in, "0xddf2"})
	}
	for _, off := range []int{-1, -3, math.MaxInt} {
		in := Input{Func: "Combine", Initial: 0xf201, Value: 0xf0eb, Offset: off}
		vs = append(vs, helperVector{"RFC 1071 §3 split at 3, odd offset " + strconv.Itoa(off), in, "0xddf2"})
	}
	in := Input{Func: "Combine", Initial: 0xf201, Value: 0xebf0, Offset: math.MinInt}
	return append(vs, helperVector{"RFC 1071 §3 split at 3, even offset MinInt", in, "0xddf2"})
}

// runHelperVectors checks the reference against each worked example (the
// oracle must agree with the RFCs), then the implementation against the
// reference; and VerifyUDP at every truncation of the valid datagrams (the
// zero-field one also between IPv4-mapped addresses), with trailing junk.
func runHelperVectors(c *checker, r *equiv.Run) error {
	for _, v := range helperVectors() {
		if !c.has(v.in.Func) {
			continue
		}
		if got := wantOf(v.in); got != v.want {
			return r.Errorf("reference %s(%s) = %s, want %s (%s): the oracle is wrong", v.in.Func, v.in.helperArgs(aligned(0)), got, v.want, v.source)
		}
		if ce := c.compare(aligned(0), v.in); ce != nil {
			ce.Args += " vector=" + strconv.Quote(v.source)
			return r.Fail(ce)
		}
	}
	if !c.has("VerifyUDP") {
		return nil
	}
	for _, d := range []struct {
		src, dst netip.Addr
		seg      []byte
	}{{v4src, v4dst, udpHi(0x1123)}, {v6src, v6dst, udpTrap6(0xffff)}, {v4src, v4dst, udpHi(0)}, {mapped(v4src), mapped(v4dst), udpHi(0)}} {
		junk := append(bytes.Clone(d.seg), 0xff, 0x80, 0x01)
		for n := 0; n <= len(junk); n++ {
			for align := range 3 {
				if ce := c.verifyUDP(aligned(align), d.src, d.dst, junk[:n]); ce != nil {
					return r.Fail(ce)
				}
			}
		}
	}
	return nil
}

// wantOf is the reference's result for a helper's input, as the checker
// reports it.
func wantOf(in Input) string {
	u := in.Update
	switch in.Func {
	case "Combine":
		return word(ref.Combine(in.Initial, in.Value, in.Offset)).String()
	case "FinishUDP":
		return word(ref.FinishUDP(in.Initial)).String()
	case "UpdateUDP":
		return word(ref.UpdateUDP(u[0], u[1], u[2])).String()
	case "UpdateUDP6":
		v, ok := ref.UpdateUDP6(u[0], u[1], u[2])
		return sumOK{v, ok}.String()
	case "PseudoHeaderSum":
		v, ok := ref.PseudoHeaderSum(in.Src, in.Dst, in.Proto, in.Length)
		return sumOK{v, ok}.String()
	case "Put":
		b := bytes.Clone(in.Data)
		ok := ref.Put(b, in.Value)
		return fmt.Sprintf("%v, b = %x", ok, b)
	case "VerifyUDP":
		return fmt.Sprint(ref.VerifyUDP(in.Src, in.Dst, in.Data))
	}
	return ""
}
