package peers

import (
	"encoding/binary"
	"net/netip"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"gvisor.dev/gvisor/pkg/tcpip"
	gvisorchecksum "gvisor.dev/gvisor/pkg/tcpip/checksum"
	"gvisor.dev/gvisor/pkg/tcpip/header"
)

// peers:begin gvisor
// gvisorImpl is gVisor's tcpip/checksum as a checksumtest.Impl. Its
// Checksum is the un-complemented one's-complement sum, Sum here; its
// Checksumer, wrapped, is the Digest.
var gvisorImpl = checksumtest.Impl{
	Name:     "gvisor",
	Sum:      gvisorchecksum.Checksum,
	Checksum: func(b []byte) uint16 { return ^gvisorchecksum.Checksum(b, 0) },
	New:      func() checksumtest.Digest { return new(gvisorDigest) },
	Combine:  func(sum, next uint16, _ int) uint16 { return gvisorchecksum.Combine(sum, next) },
	Put:      func(b []byte, c uint16) bool { gvisorchecksum.Put(b, c); return true },
}

// gvisorOptions leave out what gVisor's API does not take: Combine has no
// offset and wants its first sum "computed on an even number of bytes",
// and Put has no result to refuse a short buffer with (it panics). Each
// is labelled with its clause of docs/strictness.md.
var gvisorOptions = []equiv.Option{
	checksumtest.Relax("checksum-combine-offset", "checksum-put-short-false"),
}

// gvisorDigest is gVisor's Checksumer as a checksumtest.Digest.
type gvisorDigest struct{ c gvisorchecksum.Checksumer }

func (d *gvisorDigest) Write(p []byte) (int, error) {
	d.c.Add(p)
	return len(p), nil
}

func (d *gvisorDigest) Sum16() uint16 { return d.c.Checksum() }

func (d *gvisorDigest) Sum(in []byte) []byte {
	return binary.BigEndian.AppendUint16(in, ^d.c.Checksum())
}

func (d *gvisorDigest) Reset()         { d.c = gvisorchecksum.Checksumer{} }
func (d *gvisorDigest) Size() int      { return gvisorchecksum.Size }
func (d *gvisorDigest) BlockSize() int { return gvisorchecksum.Size }

func TestPeerGvisor(t *testing.T) {
	t.Parallel()
	checksumtest.Test(t, gvisorImpl, append(gvisorOptions, quick)...)
}

// peers:end gvisor

// peers:begin gvisorheader
// gvisorHeaderImpl is gVisor's tcpip/header as a checksumtest.Impl: the
// incremental updates it has only inside its header setters, and its
// pseudo-header sum. checksumtest requires a Sum, so tcpip/checksum's is
// given again.
var gvisorHeaderImpl = checksumtest.Impl{
	Name:            "gvisor/header",
	Sum:             gvisorchecksum.Checksum,
	Update:          gvisorUpdate,
	UpdateUDP:       gvisorUpdateUDP,
	PseudoHeaderSum: gvisorPseudoHeaderSum,
}

// gvisorUpdate is Update through a TCP header's checksum field: the
// field and the source port set to checksum and old, then
// SetSourcePortWithChecksumUpdate(new).
func gvisorUpdate(checksum, old, new uint16) uint16 {
	var b [header.TCPMinimumSize]byte
	tcp := header.TCP(b[:])
	tcp.SetSourcePort(old)
	tcp.SetChecksum(checksum)
	tcp.SetSourcePortWithChecksumUpdate(new)
	return tcp.Checksum()
}

// gvisorUpdateUDP is UpdateUDP through a UDP header's setter, which keeps
// a zero field (no checksum) and sends a computed zero as 0xFFFF.
func gvisorUpdateUDP(checksum, old, new uint16) uint16 {
	var b [header.UDPMinimumSize]byte
	udp := header.UDP(b[:])
	udp.SetSourcePort(old)
	udp.SetChecksum(checksum)
	udp.SetSourcePortWithChecksumUpdate(new)
	return udp.Checksum()
}

// gvisorPseudoHeaderSum is header.PseudoHeaderChecksum on the addresses
// as gVisor's stack holds them: 4 bytes for IPv4, so an IPv4-mapped
// netip.Addr (a dual-stack socket's view of an IPv4 peer) is unmapped. A
// zero netip.Addr has no tcpip.Address; the adapter refuses it.
func gvisorPseudoHeaderSum(src, dst netip.Addr, proto uint8, length uint32) (uint16, bool) {
	if !src.IsValid() || !dst.IsValid() {
		return 0, false
	}
	s, d := tcpip.AddrFromSlice(src.Unmap().AsSlice()), tcpip.AddrFromSlice(dst.Unmap().AsSlice())
	return header.PseudoHeaderChecksum(tcpip.TransportProtocolNumber(proto), s, d, uint16(length)), true
}

// gvisorHeaderOptions: header.PseudoHeaderChecksum sums what it is
// given, addresses of two families and a length of 16 bits
// (docs/strictness.md names both as this module's API contract, not RFC
// requirements). The quick run samples the exhaustive method: its 17.8
// million Updates through a header cost a microsecond each.
var gvisorHeaderOptions = []equiv.Option{
	checksumtest.Relax("checksum-pseudo-refuses-mixed", "checksum-pseudo-32-bit-length"),
	sampledAtQuick(4),
}

func TestPeerGvisorHeader(t *testing.T) {
	t.Parallel()
	checksumtest.Test(t, gvisorHeaderImpl, append(gvisorHeaderOptions, quick)...)
}

// peers:end gvisorheader

// TestDivergeGvisor: what gvisorOptions and gvisorHeaderOptions leave
// out, as the suite reports it without them (docs/peers.md).
func TestDivergeGvisor(t *testing.T) {
	t.Parallel()
	assertDivergence(t, "gvisor: Put into 1 byte panics",
		checksumtest.Check(checksumtest.Impl{Sum: gvisorImpl.Sum, Put: gvisorImpl.Put}, vectorsOnly),
		`Put(len=0 c=0x220d`, `= panic(runtime error: index out of range [1] with length 0), want false, b = ;`)
	assertDivergence(t, "gvisor: Combine ignores an odd offset",
		checksumtest.Check(checksumtest.Impl{Sum: gvisorImpl.Sum, Combine: gvisorImpl.Combine}, vectorsOnly),
		`Combine(len=0 sum=0x0000 next=0xf2dd offset=1`, `= 0xf2dd, want 0xddf2;`)
	pseudo := checksumtest.Impl{Sum: gvisorHeaderImpl.Sum, PseudoHeaderSum: gvisorHeaderImpl.PseudoHeaderSum}
	assertDivergence(t, "gvisor: PseudoHeaderChecksum truncates a length past 16 bits",
		checksumtest.Check(pseudo, vectorsOnly, checksumtest.Relax("checksum-pseudo-refuses-mixed")),
		`PseudoHeaderSum(len=0 src=0.0.0.0 dst=0.0.0.0 proto=0 length=0x10000 vector="IPv4 length past 16 bits (RFC 9293 §3.1)")`, `= 0x0000, true, want 0x0000, false`)
	assertDivergence(t, "gvisor: PseudoHeaderChecksum sums mixed families",
		checksumtest.Check(pseudo, vectorsOnly, checksumtest.Relax("checksum-pseudo-32-bit-length")),
		`PseudoHeaderSum(len=0 src=0.0.0.0 dst=:: proto=0 length=0x0 vector="mixed families")`, `= 0x0000, true, want 0x0000, false`)
}
