package quic_test

import (
	"encoding/hex"
	"fmt"

	"github.com/equivcheck/equivcheck/reference/quic"
)

// RFC 9001 Appendix A.5's short-header packet (a ChaCha20 1-RTT packet
// with an empty DCID), then the first bytes of Appendix A.2's 1200-byte
// client Initial, whose Length field reaches past them.
func ExampleParseHeader() {
	short, _ := hex.DecodeString("4cfe4189655e5cd55c41f69080575d7999c25a5bfb")
	h, err := quic.ParseHeader(short, 0)
	fmt.Printf("%v, DCID %x, packet number at %d, %d bytes: %v\n", h.Type(), h.DCID(), h.PNOffset(), len(h.Packet()), err)

	initial, _ := hex.DecodeString("c000000001088394c8f03e5157080000449e7b9aec34d1b1c98dd7689fb8ec11")
	_, err = quic.ParseHeader(initial, 0)
	fmt.Println(err)
	// Output:
	// 1-RTT, DCID , packet number at 1, 21 bytes: <nil>
	// quic: length exceeds datagram
}

// RFC 9000 §17.1 (decoded by Appendix A.3's algorithm): the 16-bit packet
// number 0x9b32, received when the highest successfully authenticated
// packet number is 0xa82f30ea, is 0xa82f9b32.
func ExampleDecodePacketNumber() {
	fmt.Printf("%#x\n", quic.DecodePacketNumber(0xa82f30ea, 0x9b32, 2))
	// Output: 0xa82f9b32
}
