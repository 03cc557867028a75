package quic_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"

	"github.com/equivcheck/equivcheck/reference/quic"
)

// serverInitial is RFC 9001 Appendix A.3's protected server Initial, 135
// bytes, as sent.
const serverInitial = "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a" +
	"5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3" +
	"dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84" +
	"022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4" +
	"2158407dd074ee"

// walk prints what a receiver does with each packet of a datagram.
func walk(datagram []byte, shortDCIDLen int) {
	for h, err := range quic.Packets(datagram, shortDCIDLen) {
		switch err {
		case nil:
			fmt.Printf("  %v packet, %d bytes: decrypt it\n", h.Type(), len(h.Packet()))
		case quic.ErrPacketTooShort, quic.ErrDCIDMismatch:
			fmt.Printf("  %v packet, %d bytes: skip it (%v)\n", h.Type(), len(h.Packet()), err)
		case quic.ErrTrailingBytes:
			fmt.Printf("  %d bytes of padding or junk: ignore them\n", len(h.Packet()))
		default:
			fmt.Printf("  not a QUIC datagram: %v\n", err)
		}
	}
}

// A server's Initial padded to 1200 bytes (RFC 9000 §14.1): with zero
// bytes, as neqo, quiche and aioquic pad, and with random bytes, as
// picoquic does. The Initial is kept and zero padding comes back once, as
// ErrTrailingBytes; only an error in the first packet means the datagram
// is bad. Random bytes come back as padding too, or as a packet to skip
// (here an unsupported-version packet with another DCID) or, since this
// Initial's DCID is empty like the short header's, as a 1-RTT packet, which
// no header rule can tell from one and whose decryption fails.
func ExamplePackets_padded() {
	initial, _ := hex.DecodeString(serverInitial)

	fmt.Println("zero padding:")
	walk(append(bytes.Clone(initial), make([]byte, 1200-len(initial))...), 0)

	for seed := range uint64(4) {
		junk := make([]byte, 1200-len(initial))
		rng := rand.New(rand.NewPCG(seed+1, 2))
		for i := range junk {
			junk[i] = byte(rng.Uint32())
		}
		fmt.Printf("random padding starting %#x:\n", junk[0])
		walk(append(bytes.Clone(initial), junk...), 0)
	}

	fmt.Println("padding alone:")
	walk(make([]byte, 1200), 0)
	// Output:
	// zero padding:
	//   Initial packet, 135 bytes: decrypt it
	//   1065 bytes of padding or junk: ignore them
	// random padding starting 0x86:
	//   Initial packet, 135 bytes: decrypt it
	//   UnsupportedVersion packet, 1065 bytes: skip it (quic: coalesced packet with a different destination connection ID)
	// random padding starting 0x5c:
	//   Initial packet, 135 bytes: decrypt it
	//   1-RTT packet, 1065 bytes: decrypt it
	// random padding starting 0x34:
	//   Initial packet, 135 bytes: decrypt it
	//   1065 bytes of padding or junk: ignore them
	// random padding starting 0x1c:
	//   Initial packet, 135 bytes: decrypt it
	//   1065 bytes of padding or junk: ignore them
	// padding alone:
	//   not a QUIC datagram: quic: fixed bit is zero
}

// A 1-RTT packet whose sender cleared the Fixed Bit, as RFC 9287 lets it
// once both peers advertised grease_quic_bit: rejected by default,
// accepted with GreaseQUICBit.
func ExampleParseHeaderWith() {
	// RFC 9001 Appendix A.5's protected ChaCha20 packet, 0x40 cleared.
	p, _ := hex.DecodeString("0cfe4189655e5cd55c41f69080575d7999c25a5bfb")

	_, err := quic.ParseHeader(p, 0)
	fmt.Println("ParseHeader:", err)
	h, err := quic.ParseHeaderWith(p, 0, quic.GreaseQUICBit)
	fmt.Printf("ParseHeaderWith(GreaseQUICBit): %v, %d bytes, %v\n", h.Type(), len(h.Packet()), err)
	// Output:
	// ParseHeader: quic: fixed bit is zero
	// ParseHeaderWith(GreaseQUICBit): 1-RTT, 21 bytes, <nil>
}

// A Stateless Reset (RFC 9000 §10.3) of 25 bytes, sent to an endpoint
// whose connection IDs are 8 bytes long: too short for a 1-RTT packet's
// header protection sample, it comes back as ErrPacketTooShort with the
// complete Header, whose last 16 bytes the endpoint compares with its
// stateless reset tokens (§10.3.1).
func ExampleParseHeader_statelessReset() {
	token, _ := hex.DecodeString("a4a5a6a7a8a9aaabacadaeafb0b1b2b3")
	reset := append([]byte{0x5e, 0x3b, 0x91, 0x07, 0xc2, 0x6f, 0x18, 0xd4, 0x90}, token...)

	h, err := quic.ParseHeader(reset, 8)
	fmt.Printf("%v, %d bytes: %v\n", h.Type(), len(h.Packet()), err)
	if err == quic.ErrPacketTooShort {
		tail := h.Packet()[len(h.Packet())-16:]
		fmt.Println("stateless reset:", bytes.Equal(tail, token))
	}
	// Output:
	// 1-RTT, 25 bytes: quic: packet too short for header protection sample
	// stateless reset: true
}
