package checksum

import (
	"net/netip"
	"testing"
)

// Sinks for the results of the calls measured below.
var (
	helperSink16 uint16
	helperSinkOK bool
)

// TestHelpersAllocateNothing: the helpers allocate nothing, with every
// address family (a zone included) and, for VerifyUDP, through every
// variant's own Sum and on each branch (valid, zero field, mixed families).
func TestHelpersAllocateNothing(t *testing.T) {
	v4src, v4dst := netip.MustParseAddr("192.168.0.1"), netip.MustParseAddr("192.168.0.199")
	v6src, v6dst := netip.MustParseAddr("fe80::1%eth0"), netip.MustParseAddr("2001:db8::2")
	seg4 := udpSegment(v4src, v4dst, 1500)
	seg6 := udpSegment(v6src, v6dst, 1500)
	zero := make([]byte, 64)
	b := make([]byte, 2)
	calls := map[string]func(){
		"Combine":            func() { helperSink16 = Combine(0xf201, 0xf0eb, 3) },
		"Put":                func() { helperSinkOK = Put(b, 0x220d) },
		"Put/short":          func() { helperSinkOK = Put(b[:1], 0x220d) },
		"PseudoHeaderSum/v4": func() { helperSink16, helperSinkOK = PseudoHeaderSum(v4src, v4dst, 17, 1500) },
		"PseudoHeaderSum/v6": func() { helperSink16, helperSinkOK = PseudoHeaderSum(v6src, v6dst, 17, 1<<20) },
		"PseudoHeaderSum/mixed": func() {
			helperSink16, helperSinkOK = PseudoHeaderSum(v4src, v6dst, 17, 8)
		},
		"FinishUDP":       func() { helperSink16 = FinishUDP(0xffff) },
		"UpdateUDP":       func() { helperSink16 = UpdateUDP(0x1123, 0xc0a8, 0x0a00) },
		"UpdateUDP6":      func() { helperSink16, helperSinkOK = UpdateUDP6(0x1123, 0xc0a8, 0x0a00) },
		"VerifyUDP/v4":    func() { helperSinkOK = VerifyUDP(v4src, v4dst, seg4) },
		"VerifyUDP/v6":    func() { helperSinkOK = VerifyUDP(v6src, v6dst, seg6) },
		"VerifyUDP/zero":  func() { helperSinkOK = VerifyUDP(v6src, v6dst, zero) },
		"VerifyUDP/mixed": func() { helperSinkOK = VerifyUDP(v4src, v6dst, seg4) },
	}
	for _, impl := range Impls() {
		if impl.Available {
			calls["Impl.VerifyUDP/"+impl.Name] = func() { helperSinkOK = impl.VerifyUDP(v6src, v6dst, seg6) }
		}
	}
	for name, call := range calls {
		if n := testing.AllocsPerRun(100, call); n != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, n)
		}
	}
	if !VerifyUDP(v4src, v4dst, seg4) || !VerifyUDP(v6src, v6dst, seg6) {
		t.Errorf("VerifyUDP rejects the datagrams measured")
	}
}

// udpSegment returns a valid UDP datagram of n bytes from src to dst.
func udpSegment(src, dst netip.Addr, n int) []byte {
	seg := make([]byte, n)
	for i := range seg {
		seg[i] = byte(i*7 + 3)
	}
	seg[4], seg[5], seg[6], seg[7] = byte(n>>8), byte(n), 0, 0
	ph, _ := PseudoHeaderSum(src, dst, 17, uint32(n))
	Put(seg[6:], FinishUDP(Sum(seg, ph)))
	return seg
}
