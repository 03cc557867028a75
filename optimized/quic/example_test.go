package quic_test

import (
	"bytes"
	"fmt"

	"github.com/equivcheck/equivcheck/optimized/quic"
)

// longPacket returns a QUIC version 1 long-header packet of type bits
// typ (0 Initial, 2 Handshake) with the given DCID, an empty SCID (and
// Token, for an Initial) and a payload of n bytes.
func longPacket(typ byte, dcid []byte, n int) []byte {
	p := []byte{0xc0 | typ<<4, 0, 0, 0, 1, byte(len(dcid))}
	p = append(p, dcid...)
	p = append(p, 0) // SCID Length 0
	if typ == 0 {
		p = append(p, 0) // Token Length 0
	}
	p = quic.AppendVarint(p, uint64(n)) // Length
	return append(p, bytes.Repeat([]byte{0xaa}, n)...)
}

// Walking a coalesced datagram (RFC 9000 §12.2): an Initial, a Handshake
// and a 1-RTT packet, each Header aliasing the datagram.
func ExamplePackets() {
	dcid := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	d := longPacket(0, dcid, 24)
	d = append(d, longPacket(2, dcid, 21)...)
	d = append(d, 0x41)
	d = append(d, dcid...)
	d = append(d, bytes.Repeat([]byte{0xbb}, 20)...)

	for h, err := range quic.Packets(d, len(dcid)) {
		fmt.Printf("%v: %d bytes, DCID %x, packet number at %d, err %v\n", h.Type(), len(h.Packet()), h.DCID(), h.PNOffset(), err)
	}
	// Output:
	// Initial: 41 bytes, DCID 0102030405060708, packet number at 17, err <nil>
	// Handshake: 37 bytes, DCID 0102030405060708, packet number at 16, err <nil>
	// 1-RTT: 29 bytes, DCID 0102030405060708, packet number at 9, err <nil>
}

// A varint and the packet number it would carry: RFC 9000 Appendix A.1's
// 4-byte example, then Appendix A.3's packet number decoding.
func ExampleParseVarint() {
	v, n, err := quic.ParseVarint([]byte{0x9d, 0x7f, 0x3e, 0x7d, 0xff})
	fmt.Println(v, n, err)
	fmt.Printf("%#x\n", quic.DecodePacketNumber(0xa82f30ea, 0x9b32, 2))
	// Output:
	// 494878333 4 <nil>
	// 0xa82f9b32
}
