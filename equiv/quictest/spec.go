package quictest

import (
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// PacketSpec describes one QUIC packet field by field, so that test
// datagrams can be built from a grammar: the suite's structured
// enumeration, its properties and the fuzz target FuzzQUICStructured all
// build packets with it. Append lays the fields out as RFC 9000 §17 (and
// RFC 9369 §3.2 for version 2) does for the packet type that First and
// Version select, and checks nothing, so any field may be wrong on purpose.
type PacketSpec struct {
	// First is the first byte as sent: Header Form, Fixed Bit, type bits
	// and the rest. A short header (Header Form 0) is First, DCID, Payload.
	First byte
	// Version is a long header's Version field.
	Version uint32
	// DCID and SCID are the Connection IDs. A long header writes
	// byte(len(DCID)) and byte(len(SCID)) before them; a short header has
	// no SCID, and is parsed with shortDCIDLen = len(DCID).
	DCID, SCID []byte
	// Token is an Initial packet's Token. Its Token Length field is
	// len(Token)+TokenLenDelta, clamped to 0..2^62-1.
	Token         []byte
	TokenLenDelta int64
	// TokenLenWidth is the Token Length's encoded length: 0 for the
	// shortest, or 1, 2, 4 or 8 bytes when the value fits (non-minimal
	// encodings included), else the shortest.
	TokenLenWidth int
	// LengthDelta and LengthWidth do the same for the Length field of
	// Initial, 0-RTT and Handshake packets, which counts len(Payload).
	LengthDelta int64
	LengthWidth int
	// Payload is everything after the header fields: the Packet Number
	// and payload of Initial, 0-RTT, Handshake and 1-RTT packets, a Retry's
	// token and Integrity Tag, a Version Negotiation packet's version
	// list, the opaque rest of other versions.
	Payload []byte
}

// Append appends the packet that p describes to b, encoding varints with
// reference/quic's AppendVarint where the shortest encoding is asked for.
func (p PacketSpec) Append(b []byte) []byte {
	b, _ = p.appendWith(b, quic.AppendVarint)
	return b
}

// layout is where Append put the fields of a packet, as offsets from the
// packet's first byte.
type layout struct {
	typ      quic.PacketType // the type First and Version select
	tokenLen int             // offset of an Initial's Token Length field
	token    int             // offset of an Initial's Token
	pnOffset int             // offset of the Packet Number (Initial, 0-RTT, Handshake, 1-RTT)
	tokenVal uint64          // the Token Length written
	length   uint64          // the Length written
}

// typeBits maps the Long Packet Type bits to a type: RFC 9000 §17.2 Table
// 5 for version 1, RFC 9369 §3.2 for version 2. It is written out here,
// apart from both implementations, so that the builder does not lean on
// the code it tests.
var typeBits = map[uint32][4]quic.PacketType{
	quic.Version1: {quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake, quic.TypeRetry},
	quic.Version2: {quic.TypeRetry, quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake},
}

// firstByte returns the first byte of a long header of version v (1 or 2)
// and type t, with the Fixed Bit set and low (the Type-Specific Bits) in
// the low nibble.
func firstByte(v uint32, t quic.PacketType, low byte) byte {
	for bits, tt := range typeBits[v] {
		if tt == t {
			return 0xc0 | byte(bits)<<4 | low&0x0f
		}
	}
	panic("quictest: no such long packet type")
}

// packetType returns the type First and Version select.
func (p PacketSpec) packetType() quic.PacketType {
	switch {
	case p.First&0x80 == 0:
		return quic.Type1RTT
	case p.Version == quic.VersionNegotiation:
		return quic.TypeVersionNegotiation
	}
	table, ok := typeBits[p.Version]
	if !ok {
		return quic.TypeUnsupportedVersion
	}
	return table[p.First>>4&3]
}

// appendWith appends the packet, encoding the shortest varints with
// appendVarint, and says where its fields went.
func (p PacketSpec) appendWith(b []byte, appendVarint func([]byte, uint64) []byte) ([]byte, layout) {
	start := len(b)
	lay := layout{typ: p.packetType()}
	b = append(b, p.First)
	if lay.typ == quic.Type1RTT {
		b = append(b, p.DCID...)
		lay.pnOffset = len(b) - start
		return append(b, p.Payload...), lay
	}
	b = append(b, byte(p.Version>>24), byte(p.Version>>16), byte(p.Version>>8), byte(p.Version))
	b = append(b, byte(len(p.DCID)))
	b = append(b, p.DCID...)
	b = append(b, byte(len(p.SCID)))
	b = append(b, p.SCID...)
	switch lay.typ {
	case quic.TypeInitial:
		lay.tokenLen = len(b) - start
		lay.tokenVal = addClamped(len(p.Token), p.TokenLenDelta)
		b = appendVarintWidth(b, lay.tokenVal, p.TokenLenWidth, appendVarint)
		lay.token = len(b) - start
		b = append(b, p.Token...)
		fallthrough
	case quic.Type0RTT, quic.TypeHandshake:
		lay.length = addClamped(len(p.Payload), p.LengthDelta)
		b = appendVarintWidth(b, lay.length, p.LengthWidth, appendVarint)
		lay.pnOffset = len(b) - start
	}
	return append(b, p.Payload...), lay
}

// addClamped returns n+delta clamped to 0..2^62-1.
func addClamped(n int, delta int64) uint64 {
	switch {
	case delta <= -int64(n):
		return 0
	case delta >= quic.MaxVarint-int64(n):
		return quic.MaxVarint
	}
	return uint64(int64(n) + delta)
}

// appendVarintWidth appends v encoded on width bytes (1, 2, 4 or 8: RFC
// 9000 §16 allows non-minimal encodings) if it fits, else with
// appendShortest.
func appendVarintWidth(b []byte, v uint64, width int, appendShortest func([]byte, uint64) []byte) []byte {
	var prefix byte
	switch width {
	case 1:
	case 2:
		prefix = 0x40
	case 4:
		prefix = 0x80
	case 8:
		prefix = 0xc0
	default:
		return appendShortest(b, v)
	}
	if v >= 1<<(8*width-2) {
		return appendShortest(b, v)
	}
	for i := width - 1; i >= 0; i-- {
		c := byte(v >> (8 * i))
		if i == width-1 {
			c |= prefix
		}
		b = append(b, c)
	}
	return b
}

// bytesOf returns n distinct-looking bytes; salt tells CIDs apart.
func bytesOf(n int, salt byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = salt + byte(i)*29
	}
	return b
}
