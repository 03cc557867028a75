package peers

import (
	"encoding/binary"
	"net/netip"
	"testing"

	gopacketv1 "github.com/google/gopacket"
	layersv1 "github.com/google/gopacket/layers"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
)

// peers:begin gopacket
// gopacketImpl is gopacket/gopacket as a checksumtest.Impl.
// ComputeChecksum(data, csum) adds data's big-endian words to csum
// without folding, and FoldChecksum folds and complements: Sum is their
// composition, complemented back. UDP.VerifyChecksum checks a decoded UDP
// layer against its IPv4 or IPv6 layer.
var gopacketImpl = checksumtest.Impl{
	Name: "gopacket",
	Sum: func(b []byte, initial uint16) uint16 {
		return ^gopacket.FoldChecksum(gopacket.ComputeChecksum(b, uint32(initial)))
	},
	Checksum:  func(b []byte) uint16 { return gopacket.FoldChecksum(gopacket.ComputeChecksum(b, 0)) },
	VerifyUDP: gopacketVerifyUDP,
}

// gopacketVerifyUDP is VerifyUDP through UDP.VerifyChecksum. The UDP
// layer is set up as UDP.DecodeFromBytes sets it (Contents segment[:8],
// Payload the rest), without reading the Length field, and its network
// layer is an IPv4 layer for two IPv4 addresses (IPv4-mapped ones
// unmapped) or an IPv6 layer for two IPv6 ones. A packet cannot have
// addresses of two families, or zero ones, and a decoder rejects a
// segment shorter than the header: for those the adapter reports false.
func gopacketVerifyUDP(src, dst netip.Addr, segment []byte) bool {
	src, dst = src.Unmap(), dst.Unmap()
	if len(segment) < 8 || !src.IsValid() || !dst.IsValid() || src.Is4() != dst.Is4() {
		return false
	}
	var network gopacket.NetworkLayer = &layers.IPv6{SrcIP: src.AsSlice(), DstIP: dst.AsSlice(), NextHeader: layers.IPProtocolUDP}
	if src.Is4() {
		network = &layers.IPv4{SrcIP: src.AsSlice(), DstIP: dst.AsSlice(), Protocol: layers.IPProtocolUDP}
	}
	// segment[:8:8], not segment[:8] as DecodeFromBytes sets it:
	// VerifyChecksum appends Payload to Contents, which would write over
	// the segment (docs/peers.md, finding gopacket-1).
	udp := &layers.UDP{BaseLayer: layers.BaseLayer{Contents: segment[:8:8], Payload: segment[8:]},
		Checksum: binary.BigEndian.Uint16(segment[6:8])}
	if err := udp.SetNetworkLayerForChecksum(network); err != nil {
		panic(err)
	}
	err, res := udp.VerifyChecksum()
	return err == nil && res.Valid
}

// gopacketOptions leave out VerifyChecksum's two divergences:
// "valid" for a zero field over IPv6, which RFC 8200 §8.1 says receivers
// must discard (finding gopacket-2), and a verdict on an IPv4 segment
// longer than the 16-bit Length field can say, which no IPv4 packet
// carries (this module's strictness: checksum-udp-ipv4-length-limit).
var gopacketOptions = []equiv.Option{
	checksumtest.Exclude("VerifyUDP: zero field over IPv6 (finding gopacket-2)", func(in checksumtest.Input) bool {
		return in.Func == "VerifyUDP" && len(in.Data) >= 8 && in.Data[6] == 0 && in.Data[7] == 0 &&
			in.Src.Unmap().Is6() && in.Dst.Unmap().Is6()
	}),
	checksumtest.Relax("checksum-udp-ipv4-length-limit"),
}

func TestPeerGopacket(t *testing.T) {
	t.Parallel()
	checksumtest.Test(t, gopacketImpl, append(gopacketOptions, quick)...)
}

// peers:end gopacket

// peers:begin googlegopacket
// googleGopacketImpl is google/gopacket v1.1.19, the last release of
// the module gopacket/gopacket was forked from, as a checksumtest.Impl.
// Its checksum function is unexported; layers.ICMPv4's SerializeTo, with
// ComputeChecksums, puts it in the Checksum field of an ICMP message. An
// Echo Reply (type 0, code 0) whose Id is initial, whose Seq is 0 and
// whose payload is b has the checksum ^Sum(b, initial).
var googleGopacketImpl = checksumtest.Impl{
	Name:     "google/gopacket",
	Sum:      func(b []byte, initial uint16) uint16 { return ^googleGopacketICMP(b, initial) },
	Checksum: func(b []byte) uint16 { return googleGopacketICMP(b, 0) },
}

// googleGopacketICMP serializes the Echo Reply and returns its Checksum
// field.
func googleGopacketICMP(b []byte, id uint16) uint16 {
	buf := gopacketv1.NewSerializeBuffer()
	icmp := &layersv1.ICMPv4{TypeCode: layersv1.CreateICMPv4TypeCode(0, 0), Id: id}
	opts := gopacketv1.SerializeOptions{ComputeChecksums: true}
	if err := gopacketv1.SerializeLayers(buf, opts, icmp, gopacketv1.Payload(b)); err != nil {
		panic(err)
	}
	return binary.BigEndian.Uint16(buf.Bytes()[2:4])
}

// googleGopacketOptions leave out the inputs on which the unexported
// checksum's 32-bit accumulator overflows (finding gopacket-3): more
// than 2^17 bytes with the 8-byte ICMP header.
var googleGopacketOptions = []equiv.Option{longSums}

// longSums leaves out Sum and Checksum over more than 2^17 bytes.
var longSums = checksumtest.Exclude("Sum over more than 2^17 bytes (32-bit accumulator)", func(in checksumtest.Input) bool {
	return (in.Func == "Sum" || in.Func == "Checksum") && len(in.Data) > 1<<17
})

func TestPeerGoogleGopacket(t *testing.T) {
	t.Parallel()
	checksumtest.Test(t, googleGopacketImpl, append(googleGopacketOptions, quick)...)
}

// peers:end googlegopacket

// TestDivergeGopacket: what gopacketOptions, googleGopacketOptions and
// the segment[:8:8] in gopacketVerifyUDP leave out, as the suite reports
// it without them (docs/peers.md).
func TestDivergeGopacket(t *testing.T) {
	t.Parallel()
	asDecoded := checksumtest.Impl{Sum: gopacketImpl.Sum, VerifyUDP: func(src, dst netip.Addr, segment []byte) bool {
		if len(segment) < 8 {
			return false
		}
		udp := &layers.UDP{BaseLayer: layers.BaseLayer{Contents: segment[:8], Payload: segment[8:]},
			Checksum: binary.BigEndian.Uint16(segment[6:8])}
		if err := udp.SetNetworkLayerForChecksum(&layers.IPv4{SrcIP: src.AsSlice(), DstIP: dst.AsSlice()}); err != nil {
			panic(err)
		}
		err, res := udp.VerifyChecksum()
		return err == nil && res.Valid
	}}
	assertDivergence(t, "gopacket: UDP.VerifyChecksum writes its packet",
		checksumtest.Check(asDecoded, vectorsOnly),
		`VerifyUDP(len=9 src=192.168.0.1 dst=192.168.0.199`, `= panic(memory fault: a write to its read-only input (offset 8 of 9 bytes)), want true`)
	assertDivergence(t, "gopacket: UDP.VerifyChecksum passes a zero field over IPv6",
		checksumtest.Check(gopacketImpl, vectorsOnly, gopacketOptions[1]),
		`VerifyUDP(len=8 src=2001:db8::1 dst=2001:db8::2 align=0 after an unmapped page vector="RFC 8200 §8.1: no checksum over IPv6") = true, want false`)
	long := make([]byte, 1<<17+1)
	for i := range long {
		long[i] = 0xff
	}
	assertDivergence(t, "google/gopacket: 32-bit accumulator",
		checksumtest.CheckInput(googleGopacketImpl, long, 0xffff, nil),
		`Sum(len=131073 initial=0xffff`, `= 0xfeff, want 0xff00`)
}
