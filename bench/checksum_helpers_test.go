package bench

// Peer benchmarks for the checksum helpers, to be compared with
//
//	go test -run '^$' -bench 'Combine|PseudoHeader|UDPPortRewrite|VerifyUDP' -count 6 . > helpers.txt
//	benchstat -col /impl helpers.txt
//
// Each pits optimized/checksum against gVisor's public API for the same
// job, in the same run:
//
//   - BenchmarkCombine: Combine at an even offset against gVisor's
//     checksum.Combine (which has no offset: it is only right at even
//     ones), and Combine at an odd offset, which gVisor cannot express.
//   - BenchmarkPseudoHeader: PseudoHeaderSum from netip.Addr against
//     header.PseudoHeaderChecksum from tcpip.Address, for UDP over IPv4
//     and IPv6.
//   - BenchmarkUDPPortRewrite: rewrite a UDP header's source port and
//     update its checksum (the job of a NAT): UpdateUDP and Put against
//     header.UDP.SetSourcePortWithChecksumUpdate, both leaving a zero
//     checksum alone.
//   - BenchmarkVerifyUDP: check a received datagram's checksum: VerifyUDP
//     against gVisor's receive path, header.UDP.IsChecksumValid with the
//     payload's checksum.Checksum.
//
// The inputs cycle through 16 values so that the compiler cannot fold the
// inlined helpers into constants.

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"testing"

	"github.com/equivcheck/equivcheck/optimized/checksum"
	"gvisor.dev/gvisor/pkg/tcpip"
	gvisorchecksum "gvisor.dev/gvisor/pkg/tcpip/checksum"
	"gvisor.dev/gvisor/pkg/tcpip/header"
)

// words16 are 16 partial sums to cycle through.
var words16 = func() (w [16]uint16) {
	for i := range w {
		w[i] = uint16(i*0x1357 + 0x2468)
	}
	return w
}()

func BenchmarkCombine(b *testing.B) {
	b.Run("offset=even/impl=equivcheck", func(b *testing.B) {
		i := 0
		for b.Loop() {
			checksum.Combine(words16[i&15], words16[(i+5)&15], i&^1)
			i++
		}
	})
	b.Run("offset=even/impl=gvisor", func(b *testing.B) {
		i := 0
		for b.Loop() {
			gvisorchecksum.Combine(words16[i&15], words16[(i+5)&15])
			i++
		}
	})
	b.Run("offset=odd/impl=equivcheck", func(b *testing.B) {
		i := 0
		for b.Loop() {
			checksum.Combine(words16[i&15], words16[(i+5)&15], i|1)
			i++
		}
	})
}

// benchAddrs are the addresses of the benchmarks, as netip.Addr and as
// tcpip.Address.
type benchAddrs struct {
	family   string
	src, dst netip.Addr
	gsrc     tcpip.Address
	gdst     tcpip.Address
}

func addrPairs() []benchAddrs {
	v4src, v4dst := netip.MustParseAddr("192.168.0.1"), netip.MustParseAddr("192.168.0.199")
	v6src, v6dst := netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2")
	return []benchAddrs{
		{"ipv4", v4src, v4dst, tcpip.AddrFrom4(v4src.As4()), tcpip.AddrFrom4(v4dst.As4())},
		{"ipv6", v6src, v6dst, tcpip.AddrFrom16(v6src.As16()), tcpip.AddrFrom16(v6dst.As16())},
	}
}

func BenchmarkPseudoHeader(b *testing.B) {
	for _, a := range addrPairs() {
		b.Run(fmt.Sprintf("family=%s/impl=equivcheck", a.family), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				checksum.PseudoHeaderSum(a.src, a.dst, 17, uint32(words16[i&15]))
				i++
			}
		})
		b.Run(fmt.Sprintf("family=%s/impl=gvisor", a.family), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				header.PseudoHeaderChecksum(header.UDPProtocolNumber, a.gsrc, a.gdst, words16[i&15])
				i++
			}
		})
	}
}

func BenchmarkUDPPortRewrite(b *testing.B) {
	for _, field := range []uint16{0x1123, 0} {
		name := "checksum=set"
		if field == 0 {
			name = "checksum=none"
		}
		hdr := []byte{0x04, 0x00, 0x00, 0x35, 0x00, 0x0a, byte(field >> 8), byte(field)}
		b.Run(name+"/impl=equivcheck", func(b *testing.B) {
			i := 0
			for b.Loop() {
				port := words16[i&15]
				old := binary.BigEndian.Uint16(hdr)
				binary.BigEndian.PutUint16(hdr, port)
				checksum.Put(hdr[6:], checksum.UpdateUDP(binary.BigEndian.Uint16(hdr[6:]), old, port))
				i++
			}
		})
		hdr = []byte{0x04, 0x00, 0x00, 0x35, 0x00, 0x0a, byte(field >> 8), byte(field)}
		b.Run(name+"/impl=gvisor", func(b *testing.B) {
			i := 0
			for b.Loop() {
				header.UDP(hdr).SetSourcePortWithChecksumUpdate(words16[i&15])
				i++
			}
		})
	}
}

func BenchmarkVerifyUDP(b *testing.B) {
	for _, a := range addrPairs() {
		for _, size := range []int{64, 1500} {
			seg := make([]byte, size)
			for i := range seg {
				seg[i] = byte(i*7 + 3)
			}
			u := header.UDP(seg)
			u.SetLength(uint16(size))
			u.SetChecksum(0)
			ph, _ := checksum.PseudoHeaderSum(a.src, a.dst, 17, uint32(size))
			u.SetChecksum(checksum.FinishUDP(checksum.Sum(seg, ph)))
			if !checksum.VerifyUDP(a.src, a.dst, seg) || !u.IsChecksumValid(a.gsrc, a.gdst, gvisorchecksum.Checksum(seg[8:], 0)) {
				b.Fatalf("%s/%d: the datagram does not verify", a.family, size)
			}
			b.Run(fmt.Sprintf("family=%s/size=%d/impl=equivcheck", a.family, size), func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					checksum.VerifyUDP(a.src, a.dst, seg)
				}
			})
			b.Run(fmt.Sprintf("family=%s/size=%d/impl=gvisor", a.family, size), func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					u.IsChecksumValid(a.gsrc, a.gdst, gvisorchecksum.Checksum(seg[8:], 0))
				}
			})
		}
	}
}
