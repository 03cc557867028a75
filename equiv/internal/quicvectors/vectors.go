// Package quicvectors holds QUIC test vectors from RFC 9000 Appendix A,
// RFC 9001 Appendix A and RFC 9369 Appendix A, and packets built by hand
// to the layouts of RFC 9000 §17 and RFC 8999, each with the values a
// header parser must report.
//
// The package is data only and imports nothing but the standard library,
// so its expectations do not lean on either implementation. The parsing
// rules behind the expected errors are in docs/quic.md.
package quicvectors

import (
	"encoding/hex"
	"strings"
)

// Varint is one variable-length integer encoding (RFC 9000 §16).
type Varint struct {
	Source string
	Hex    string // the encoding
	Value  uint64
	Len    int // bytes consumed
}

// Varints are the examples of RFC 9000 Appendix A.1.
var Varints = []Varint{
	{"RFC 9000 Appendix A.1", "c2197c5eff14e88c", 151288809941952652, 8},
	{"RFC 9000 Appendix A.1", "9d7f3e7d", 494878333, 4},
	{"RFC 9000 Appendix A.1", "7bbd", 15293, 2},
	{"RFC 9000 Appendix A.1", "25", 37, 1},
	{"RFC 9000 Appendix A.1 (non-minimal)", "4025", 37, 2},
}

// PacketNumber is one DecodePacketNumber case (RFC 9000 §17.1,
// Appendix A.3).
type PacketNumber struct {
	Source    string
	Largest   uint64
	Truncated uint64
	PNLen     int // bytes
	Want      uint64
}

// PacketNumbers are the example of RFC 9000 Appendix A.3 and the edges of
// its pseudocode.
var PacketNumbers = []PacketNumber{
	{"RFC 9000 §17.1, Appendix A.3", 0xa82f30ea, 0x9b32, 2, 0xa82f9b32},
	// expected_pn - pn_hwin underflows in uint64: a literal port says 511.
	{"RFC 9000 Appendix A.3, expected_pn < pn_hwin", 10, 0xff, 1, 255},
	// candidate_pn <= expected_pn - pn_hwin: the window moves up.
	{"RFC 9000 Appendix A.3, candidate + pn_win", 0x1ef, 0x05, 1, 0x205},
	// candidate_pn > expected_pn + pn_hwin: the window moves down.
	{"RFC 9000 Appendix A.3, candidate - pn_win", 0x100, 0xf0, 1, 0xf0},
	// candidate_pn == (1<<62) - pn_win: the strict "<" keeps it, where
	// adding pn_win would give 2^62, which is not a packet number.
	{"RFC 9000 Appendix A.3, 2^62 limit", 1<<62 - 129, 0x00, 1, 1<<62 - 256},
	// No packet processed yet: largest = 2^64-1, so expected_pn = 0
	// (this package's convention, docs/quic.md).
	{"docs/quic.md, empty packet number space", 1<<64 - 1, 0x12345678, 4, 0x12345678},
}

// Packet is a datagram holding one QUIC packet, and the Header that
// ParseHeader(Bytes(), ShortDCIDLen) must return with a nil error. Byte
// strings are hex; "" is an empty field.
type Packet struct {
	Name   string
	Source string
	// Hex is the start of the datagram. Pad zero bytes follow it: a
	// stand-in for the payload, which the parser does not read.
	Hex          string
	Pad          int
	ShortDCIDLen int

	Type              string // PacketType.String()
	Version           uint32
	DCID              string
	SCID              string
	Token             string
	Length            uint64
	PNOffset          int
	PacketLen         int // len(Header.Packet)
	SupportedVersions string
	IntegrityTag      string
	Spin              bool

	// Grease marks a packet whose Fixed Bit is 0 (RFC 9287): the Header
	// above is ParseHeaderWith's with GreaseQUICBit, and ParseHeader
	// rejects the packet with ErrFixedBitClear.
	Grease bool
}

// Bytes returns a fresh copy of the datagram.
func (p Packet) Bytes() []byte { return decode(p.Hex, p.Pad) }

// The protected server Initial packets of RFC 9001 Appendix A.3 (version
// 1) and RFC 9369 Appendix A.3 (version 2), 135 bytes each, as sent.
const (
	rfc9001ServerInitial = "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a" +
		"5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3" +
		"dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84" +
		"022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4" +
		"2158407dd074ee"
	rfc9369ServerInitial = "dc6b3343cf0008f067a5502a4262b5004075d92faaf16f05d8a4398c47089698" +
		"baeea26b91eb761d9b89237bbf87263017915358230035f7fd3945d88965cf17" +
		"f9af6e16886c61bfc703106fbaf3cb4cfa52382dd16a393e42757507698075b2" +
		"c984c707f0a0812d8cd5a6881eaf21ceda98f4bd23f6fe1a3e2c43edd9ce7ca8" +
		"4bed8521e2e140"
)

const (
	rfcDCID = "8394c8f03e515708" // RFC 9001 Appendix A
	rfcSCID = "f067a5502a4262b5" // RFC 9001 Appendix A.3
	dcid8   = "1122334455667788"
	scid8   = "aabbccddeeff0011"
)

// Packets are the packets of RFC 9001 Appendix A and RFC 9369 Appendix A
// (unprotected headers, padded to their Length, and protected packets as
// sent), and hand-built packets of the other types.
var Packets = []Packet{
	{
		Name: "v1-client-initial", Source: "RFC 9001 Appendix A.2, unprotected header",
		Hex: "c300000001088394c8f03e5157080000449e00000002", Pad: 1178,
		Type: "Initial", Version: 1, DCID: rfcDCID, Token: "",
		Length: 1182, PNOffset: 18, PacketLen: 1200,
	},
	{
		Name: "v1-server-initial", Source: "RFC 9001 Appendix A.3, unprotected header",
		Hex: "c1000000010008f067a5502a4262b50040750001", Pad: 115,
		Type: "Initial", Version: 1, DCID: "", SCID: rfcSCID, Token: "",
		Length: 117, PNOffset: 18, PacketLen: 135,
	},
	{
		Name: "v1-server-initial-protected", Source: "RFC 9001 Appendix A.3, protected packet",
		Hex:  rfc9001ServerInitial,
		Type: "Initial", Version: 1, DCID: "", SCID: rfcSCID, Token: "",
		Length: 117, PNOffset: 18, PacketLen: 135,
	},
	{
		Name: "v1-retry", Source: "RFC 9001 Appendix A.4",
		Hex:  "ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f0f2496ba",
		Type: "Retry", Version: 1, DCID: "", SCID: rfcSCID, Token: "746f6b656e",
		IntegrityTag: "04a265ba2eff4d829058fb3f0f2496ba", PacketLen: 36,
	},
	{
		Name: "v1-chacha20-short", Source: "RFC 9001 Appendix A.5, unprotected header 4200bff4 and payload",
		Hex:  "4200bff4655e5cd55c41f69080575d7999c25a5bfb",
		Type: "1-RTT", DCID: "", PNOffset: 1, PacketLen: 21,
	},
	{
		Name: "v1-chacha20-short-protected", Source: "RFC 9001 Appendix A.5, protected packet",
		Hex:  "4cfe4189655e5cd55c41f69080575d7999c25a5bfb",
		Type: "1-RTT", DCID: "", PNOffset: 1, PacketLen: 21,
	},
	{
		Name: "v2-client-initial", Source: "RFC 9369 Appendix A.2, unprotected header",
		Hex: "d36b3343cf088394c8f03e5157080000449e00000002", Pad: 1178,
		Type: "Initial", Version: 0x6b3343cf, DCID: rfcDCID, Token: "",
		Length: 1182, PNOffset: 18, PacketLen: 1200,
	},
	{
		Name: "v2-server-initial", Source: "RFC 9369 Appendix A.3, unprotected header",
		Hex: "d16b3343cf0008f067a5502a4262b50040750001", Pad: 115,
		Type: "Initial", Version: 0x6b3343cf, DCID: "", SCID: rfcSCID, Token: "",
		Length: 117, PNOffset: 18, PacketLen: 135,
	},
	{
		Name: "v2-server-initial-protected", Source: "RFC 9369 Appendix A.3, protected packet",
		Hex:  rfc9369ServerInitial,
		Type: "Initial", Version: 0x6b3343cf, DCID: "", SCID: rfcSCID, Token: "",
		Length: 117, PNOffset: 18, PacketLen: 135,
	},
	{
		Name: "v2-retry", Source: "RFC 9369 Appendix A.4",
		Hex:  "cf6b3343cf0008f067a5502a4262b5746f6b656ec8646ce8bfe33952d955543665dcc7b6",
		Type: "Retry", Version: 0x6b3343cf, DCID: "", SCID: rfcSCID, Token: "746f6b656e",
		IntegrityTag: "c8646ce8bfe33952d955543665dcc7b6", PacketLen: 36,
	},
	{
		Name: "v2-chacha20-short", Source: "RFC 9369 Appendix A.5, unprotected header 4200bff4 and payload",
		Hex:  "4200bff40ae7b6b932bc27d786f4bc2bb20f2162ba",
		Type: "1-RTT", DCID: "", PNOffset: 1, PacketLen: 21,
	},
	{
		Name: "v2-chacha20-short-protected", Source: "RFC 9369 Appendix A.5, protected packet",
		Hex:  "5558b1c60ae7b6b932bc27d786f4bc2bb20f2162ba",
		Type: "1-RTT", DCID: "", PNOffset: 1, PacketLen: 21,
	},

	// Hand-built packets.
	{
		Name: "short-dcid8-spin", Source: "RFC 9000 §17.3.1 (built)",
		Hex: "61" + dcid8, Pad: 24, ShortDCIDLen: 8,
		Type: "1-RTT", DCID: dcid8, PNOffset: 9, PacketLen: 33, Spin: true,
	},
	{
		Name: "v1-0rtt-length-20", Source: "RFC 9000 §17.2.3 (built; Length at the RFC 9001 §5.4.2 minimum)",
		Hex: "d300000001" + "08" + dcid8 + "08" + scid8 + "14", Pad: 20,
		Type: "0-RTT", Version: 1, DCID: dcid8, SCID: scid8,
		Length: 20, PNOffset: 24, PacketLen: 44,
	},
	{
		Name: "v1-handshake", Source: "RFC 9000 §17.2.4 (built)",
		Hex: "e000000001" + "08" + dcid8 + "08" + scid8 + "4018", Pad: 24,
		Type: "Handshake", Version: 1, DCID: dcid8, SCID: scid8,
		Length: 24, PNOffset: 25, PacketLen: 49,
	},
	{
		Name: "v2-0rtt", Source: "RFC 9369 §3.2 (built; 0-RTT is 0b10)",
		Hex: "e26b3343cf" + "00" + "08" + scid8 + "18", Pad: 24,
		Type: "0-RTT", Version: 0x6b3343cf, DCID: "", SCID: scid8,
		Length: 24, PNOffset: 16, PacketLen: 40,
	},
	{
		Name: "v2-handshake", Source: "RFC 9369 §3.2 (built; Handshake is 0b11)",
		Hex: "f16b3343cf" + "08" + dcid8 + "00" + "4020", Pad: 32,
		Type: "Handshake", Version: 0x6b3343cf, DCID: dcid8, SCID: "",
		Length: 32, PNOffset: 17, PacketLen: 49,
	},
	{
		Name: "version-negotiation", Source: "RFC 8999 §6, RFC 9000 §17.2.1 (built; Fixed Bit 0 is ignored)",
		Hex:  "8000000000" + "08" + dcid8 + "08" + scid8 + "000000016b3343cf0a1a2a3aff00001d",
		Type: "VersionNegotiation", Version: 0, DCID: dcid8, SCID: scid8,
		SupportedVersions: "000000016b3343cf0a1a2a3aff00001d", PacketLen: 39,
	},

	// Greased packets (RFC 9287): RFC packets with the Fixed Bit cleared,
	// as a peer that negotiated grease_quic_bit may send them.
	{
		Name: "v1-chacha20-short-greased", Source: "RFC 9001 Appendix A.5, protected, Fixed Bit cleared (RFC 9287 §3.1)",
		Hex: "0cfe4189655e5cd55c41f69080575d7999c25a5bfb", Grease: true,
		Type: "1-RTT", DCID: "", PNOffset: 1, PacketLen: 21,
	},
	{
		Name: "v1-server-initial-greased", Source: "RFC 9001 Appendix A.3, protected, Fixed Bit cleared (RFC 9287 §3.1)",
		Hex: "8f" + rfc9001ServerInitial[2:], Grease: true,
		Type: "Initial", Version: 1, DCID: "", SCID: rfcSCID, Token: "",
		Length: 117, PNOffset: 18, PacketLen: 135,
	},
	{
		Name: "v2-client-initial-greased", Source: "RFC 9369 Appendix A.2, unprotected header, Fixed Bit cleared (RFC 9287 §3.1)",
		Hex: "936b3343cf088394c8f03e5157080000449e00000002", Pad: 1178, Grease: true,
		Type: "Initial", Version: 0x6b3343cf, DCID: rfcDCID, Token: "",
		Length: 1182, PNOffset: 18, PacketLen: 1200,
	},
	{
		Name: "v2-retry-greased", Source: "RFC 9369 Appendix A.4, Fixed Bit cleared (RFC 9287 §3.1: Retry packets too)",
		Hex: "8f6b3343cf0008f067a5502a4262b5746f6b656ec8646ce8bfe33952d955543665dcc7b6", Grease: true,
		Type: "Retry", Version: 0x6b3343cf, DCID: "", SCID: rfcSCID, Token: "746f6b656e",
		IntegrityTag: "c8646ce8bfe33952d955543665dcc7b6", PacketLen: 36,
	},
	{
		Name: "short-dcid8-greased", Source: "RFC 9000 §17.3.1 (built; Fixed Bit cleared, RFC 9287 §3)",
		Hex: "21" + dcid8, Pad: 24, ShortDCIDLen: 8, Grease: true,
		Type: "1-RTT", DCID: dcid8, PNOffset: 9, PacketLen: 33, Spin: true,
	},
	{
		Name: "unsupported-version-long-cid", Source: "RFC 8999 §5.1 (built; 25-byte DCID, reserved version 0x1a2a3a4a)",
		Hex:  "801a2a3a4a" + "19" + "000102030405060708090a0b0c0d0e0f101112131415161718" + "00" + "deadbeef",
		Type: "UnsupportedVersion", Version: 0x1a2a3a4a,
		DCID: "000102030405060708090a0b0c0d0e0f101112131415161718", SCID: "", PacketLen: 36,
	},
}

// BadPacket is a datagram ParseHeader must reject with Err, the name of
// one of the package's sentinel errors ("ErrCIDTooLong").
type BadPacket struct {
	Name         string
	Source       string
	Hex          string
	Pad          int
	ShortDCIDLen int
	Err          string
}

// Bytes returns a fresh copy of the datagram.
func (p BadPacket) Bytes() []byte { return decode(p.Hex, p.Pad) }

// BadPackets are datagrams with one problem each, and a few with two that
// check which error wins (the first in wire order).
var BadPackets = []BadPacket{
	{Name: "empty", Source: "docs/quic.md", Hex: "", Err: "ErrTruncated"},
	{Name: "short-dcid-len-21", Source: "docs/quic.md", Hex: "40", Pad: 40, ShortDCIDLen: 21, Err: "ErrInvalidArgument"},
	{Name: "short-dcid-len-negative", Source: "docs/quic.md", Hex: "c000000001", ShortDCIDLen: -1, Err: "ErrInvalidArgument"},
	{
		Name: "v1-dcid-21", Source: "RFC 9000 §17.2",
		Hex: "c000000001" + "15" + strings.Repeat("ab", 21) + "00" + "00" + "14", Pad: 20, Err: "ErrCIDTooLong",
	},
	{
		// golang/go#78703: x/net checked the DCID length where it meant
		// the SCID, and accepted this packet.
		Name: "v1-scid-21", Source: "RFC 9000 §17.2, golang/go#78703",
		Hex: "c000000001" + "08" + dcid8 + "15" + strings.Repeat("ab", 21) + "00" + "14", Pad: 20, Err: "ErrCIDTooLong",
	},
	{
		Name: "v2-scid-21", Source: "RFC 9369 §3, RFC 9000 §17.2",
		Hex: "d06b3343cf" + "00" + "15" + strings.Repeat("ab", 21) + "00" + "14", Pad: 20, Err: "ErrCIDTooLong",
	},
	{
		Name: "v1-long-fixed-bit-clear", Source: "RFC 9000 §17.2",
		Hex: "8000000001" + "08" + dcid8 + "00" + "00" + "14", Pad: 20, Err: "ErrFixedBitClear",
	},
	{
		Name: "short-fixed-bit-clear", Source: "RFC 9000 §17.3.1",
		Hex: "01" + dcid8, Pad: 24, ShortDCIDLen: 8, Err: "ErrFixedBitClear",
	},
	{Name: "vn-empty-list", Source: "RFC 8999 §6", Hex: "c000000000" + "00" + "00", Err: "ErrBadVersionList"},
	{Name: "vn-ragged-list", Source: "RFC 8999 §6", Hex: "c000000000" + "00" + "00" + "0000000100", Err: "ErrBadVersionList"},
	{
		Name: "v1-retry-empty-token", Source: "RFC 9000 §17.2.5.2",
		Hex: "f000000001" + "00" + "08" + scid8 + strings.Repeat("ee", 16), Err: "ErrEmptyRetryToken",
	},
	{
		Name: "v1-retry-no-tag", Source: "RFC 9000 §17.2.5",
		Hex: "f000000001" + "00" + "08" + scid8 + strings.Repeat("ee", 15), Err: "ErrTruncated",
	},
	{
		Name: "v1-handshake-length-exceeds", Source: "RFC 9000 §12.2, §17.2.4",
		Hex: "e000000001" + "08" + dcid8 + "08" + scid8 + "4019", Pad: 24, Err: "ErrLengthExceedsDatagram",
	},
	{
		Name: "v1-initial-length-19", Source: "RFC 9001 §5.4.2",
		Hex: "c000000001" + "08" + dcid8 + "00" + "00" + "13", Pad: 19, Err: "ErrPacketTooShort",
	},
	{
		Name: "short-19-after-dcid", Source: "RFC 9001 §5.4.2",
		Hex: "40" + dcid8, Pad: 19, ShortDCIDLen: 8, Err: "ErrPacketTooShort",
	},
	{
		Name: "short-dcid-truncated", Source: "RFC 9000 §17.3.1",
		Hex: "40" + "1122334455", ShortDCIDLen: 8, Err: "ErrTruncated",
	},
	{
		Name: "v1-initial-token-truncated", Source: "RFC 9000 §17.2.2",
		Hex: "c000000001" + "00" + "00" + "0a" + "0102030405", Err: "ErrTruncated",
	},
	{
		Name: "v1-initial-length-varint-truncated", Source: "RFC 9000 §16, §17.2.2",
		Hex: "c000000001" + "00" + "00" + "00" + "80ff", Err: "ErrTruncated",
	},
	{Name: "long-version-truncated", Source: "RFC 8999 §5.1", Hex: "c0000000", Err: "ErrTruncated"},
	// Precedence: the DCID Length byte is bad before the DCID runs out.
	{Name: "v1-dcid-21-then-truncated", Source: "docs/quic.md precedence", Hex: "c000000001" + "15" + "abab", Err: "ErrCIDTooLong"},
	// Precedence: the Fixed Bit (judged with the Version) before the CID.
	{Name: "v1-fixed-bit-then-dcid-21", Source: "docs/quic.md precedence", Hex: "8000000001" + "15", Err: "ErrFixedBitClear"},
	// Precedence: the argument before anything in the packet.
	{Name: "invalid-argument-then-empty", Source: "docs/quic.md precedence", Hex: "", ShortDCIDLen: 99, Err: "ErrInvalidArgument"},
	// Precedence: Length past the datagram before Length under 20.
	{
		Name: "v1-length-exceeds-and-short", Source: "docs/quic.md precedence",
		Hex: "c000000001" + "00" + "00" + "00" + "05", Pad: 4, Err: "ErrLengthExceedsDatagram",
	},
}

// CoalescedPacket is one packet Packets must yield: its type, its length
// and the name of its error ("" for none).
type CoalescedPacket struct {
	Type      string
	PacketLen int
	Err       string
}

// Datagram is a UDP datagram of coalesced packets (RFC 9000 §12.2) and
// what the iterator Packets(Bytes(), ShortDCIDLen) must yield, or
// PacketsWith(Bytes(), ShortDCIDLen, GreaseQUICBit) if Grease is set.
// Trailing bytes (ErrTrailingBytes) are a CoalescedPacket of Type "".
type Datagram struct {
	Name         string
	Source       string
	Hex          string
	ShortDCIDLen int
	Want         []CoalescedPacket
	// Pad zero bytes, then Junk bytes of Padding(JunkSeed, Junk), follow
	// Hex: a sender's zero or random padding (RFC 9000 §14.1).
	Pad      int
	Junk     int
	JunkSeed uint64
	Grease   bool
}

// Bytes returns a fresh copy of the datagram.
func (d Datagram) Bytes() []byte {
	return append(decode(d.Hex, d.Pad), Padding(d.JunkSeed, d.Junk)...)
}

// Padding returns n pseudo-random bytes drawn from seed (the top byte of
// each SplitMix64 output, which never changes for a seed): a stand-in for
// the random padding some clients (picoquic) put after their packets.
func Padding(seed uint64, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		seed += 0x9e3779b97f4a7c15
		z := (seed ^ seed>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		b[i] = byte((z ^ z>>31) >> 56)
	}
	return b
}

var zeros20 = strings.Repeat("00", 20)

// Datagrams exercise the coalescing rules of Packets (docs/quic.md).
var Datagrams = []Datagram{
	{
		Name: "initial-handshake-1rtt", Source: "RFC 9000 §12.2 (built)",
		Hex: "c000000001" + "08" + dcid8 + "00" + "00" + "4014" + zeros20 +
			"e000000001" + "08" + dcid8 + "00" + "14" + zeros20 +
			"40" + dcid8 + zeros20,
		ShortDCIDLen: 8,
		Want:         []CoalescedPacket{{"Initial", 38, ""}, {"Handshake", 36, ""}, {"1-RTT", 29, ""}},
	},
	{
		Name: "short-initial-is-skipped", Source: "RFC 9001 §5.4.2, RFC 9000 §12.2 (built)",
		Hex: "c000000001" + "08" + dcid8 + "00" + "00" + "02" + "0000" +
			"e000000001" + "08" + dcid8 + "00" + "14" + zeros20,
		ShortDCIDLen: 8,
		Want:         []CoalescedPacket{{"Initial", 19, "ErrPacketTooShort"}, {"Handshake", 36, ""}},
	},
	{
		Name: "dcid-mismatch-is-skipped", Source: "RFC 9000 §12.2 (built)",
		Hex: "c000000001" + "08" + dcid8 + "00" + "00" + "14" + zeros20 +
			"e000000001" + "08" + scid8 + "00" + "14" + zeros20 +
			"40" + dcid8 + zeros20,
		ShortDCIDLen: 8,
		Want:         []CoalescedPacket{{"Initial", 37, ""}, {"Handshake", 36, "ErrDCIDMismatch"}, {"1-RTT", 29, ""}},
	},
	{
		Name: "stops-after-length-exceeds", Source: "RFC 9000 §12.2 (built)",
		Hex: "c000000001" + "08" + dcid8 + "00" + "00" + "14" + zeros20 +
			"e000000001" + "08" + dcid8 + "00" + "15" + zeros20,
		ShortDCIDLen: 8,
		Want:         []CoalescedPacket{{"Initial", 37, ""}, {"", 36, "ErrTrailingBytes"}},
	},
	{
		Name: "trailing-zeros-stop", Source: "RFC 9000 §14.1 (built; padding after the last long header)",
		Hex:          "c000000001" + "08" + dcid8 + "00" + "00" + "14" + zeros20 + "000000",
		ShortDCIDLen: 8,
		Want:         []CoalescedPacket{{"Initial", 37, ""}, {"", 3, "ErrTrailingBytes"}},
	},
	{
		Name: "first-packet-bad-is-not-trailing", Source: "docs/quic.md (built; zeros alone are not a packet)",
		Hex: "000000", ShortDCIDLen: 8,
		Want: []CoalescedPacket{{"", 0, "ErrFixedBitClear"}},
	},

	// Padded datagrams (RFC 9000 §14.1): real Initials followed by zero
	// padding (neqo, quiche, aioquic) or random padding (picoquic). The
	// server Initials are 135 bytes, padded to 1200; the client Initials
	// already fill 1200 bytes, and get 100 more. Random padding reads as
	// padding (first byte 0b00xxxxxx: a short header with Fixed Bit 0) or
	// as a packet, whose DCID decides (the server Initials' DCID is empty,
	// like a 1-RTT packet's with shortDCIDLen 0).
	{
		Name: "v1-server-initial-zero-padded", Source: "RFC 9001 Appendix A.3, RFC 9000 §14.1",
		Hex: rfc9001ServerInitial, Pad: 1065,
		Want: []CoalescedPacket{{"Initial", 135, ""}, {"", 1065, "ErrTrailingBytes"}},
	},
	{
		Name: "v1-server-initial-random-padded", Source: "RFC 9001 Appendix A.3, RFC 9000 §14.1 (random padding starting 0x1d)",
		Hex: rfc9001ServerInitial, Junk: 1065, JunkSeed: 3,
		Want: []CoalescedPacket{{"Initial", 135, ""}, {"", 1065, "ErrTrailingBytes"}},
	},
	{
		Name: "v1-server-initial-random-padding-reads-as-other-dcid", Source: "RFC 9001 Appendix A.3, RFC 9000 §12.2 (random padding starting 0x91)",
		Hex: rfc9001ServerInitial, Junk: 1065, JunkSeed: 1,
		Want: []CoalescedPacket{{"Initial", 135, ""}, {"UnsupportedVersion", 1065, "ErrDCIDMismatch"}},
	},
	{
		Name: "v1-server-initial-random-padding-reads-as-1rtt", Source: "RFC 9001 Appendix A.3, RFC 9000 §12.2 (random padding starting 0x6e; decryption rejects it)",
		Hex: rfc9001ServerInitial, Junk: 1065, JunkSeed: 4,
		Want: []CoalescedPacket{{"Initial", 135, ""}, {"1-RTT", 1065, ""}},
	},
	{
		Name: "v2-server-initial-zero-padded", Source: "RFC 9369 Appendix A.3, RFC 9000 §14.1",
		Hex: rfc9369ServerInitial, Pad: 1065,
		Want: []CoalescedPacket{{"Initial", 135, ""}, {"", 1065, "ErrTrailingBytes"}},
	},
	{
		Name: "v2-server-initial-random-padded", Source: "RFC 9369 Appendix A.3, RFC 9000 §14.1 (random padding starting 0x1d)",
		Hex: rfc9369ServerInitial, Junk: 1065, JunkSeed: 3,
		Want: []CoalescedPacket{{"Initial", 135, ""}, {"", 1065, "ErrTrailingBytes"}},
	},
	{
		Name: "v1-client-initial-zero-padded", Source: "RFC 9001 Appendix A.2, unprotected header, RFC 9000 §14.1",
		Hex: "c300000001088394c8f03e5157080000449e00000002", Pad: 1178 + 100, ShortDCIDLen: 8,
		Want: []CoalescedPacket{{"Initial", 1200, ""}, {"", 100, "ErrTrailingBytes"}},
	},
	{
		Name: "v2-client-initial-random-padded", Source: "RFC 9369 Appendix A.2, unprotected header, RFC 9000 §14.1 (random padding starting 0x08)",
		Hex: "d36b3343cf088394c8f03e5157080000449e00000002" + strings.Repeat("00", 1178), Junk: 100, JunkSeed: 10, ShortDCIDLen: 8,
		Want: []CoalescedPacket{{"Initial", 1200, ""}, {"", 100, "ErrTrailingBytes"}},
	},

	// Greased and padded (RFC 9287 with RFC 9000 §14.1), parsed with
	// GreaseQUICBit: a first byte 0x00 can then start a 1-RTT packet, but
	// bytes that are all zero are still padding.
	{
		Name: "v1-server-initial-greased-zero-padded", Source: "RFC 9001 Appendix A.3, Fixed Bit cleared (RFC 9287), RFC 9000 §14.1",
		Hex: "8f" + rfc9001ServerInitial[2:], Pad: 1065, Grease: true,
		Want: []CoalescedPacket{{"Initial", 135, ""}, {"", 1065, "ErrTrailingBytes"}},
	},
	{
		Name: "greased-zero-then-junk-reads-as-1rtt", Source: "RFC 9287, RFC 9000 §12.2 (built; a zero byte, then random bytes)",
		Hex: "8000000001" + "08" + dcid8 + "00" + "00" + "14" + zeros20 + "00", Junk: 40, JunkSeed: 3, ShortDCIDLen: 8, Grease: true,
		Want: []CoalescedPacket{{"Initial", 37, ""}, {"1-RTT", 41, "ErrDCIDMismatch"}},
	},
	{
		Name: "empty", Source: "docs/quic.md", Hex: "",
		Want: []CoalescedPacket{{"", 0, "ErrTruncated"}},
	},
}

func decode(s string, pad int) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic("quicvectors: bad hex: " + err.Error())
	}
	return append(b, make([]byte, pad)...)
}
