package quictest

import (
	"math"

	"pgregory.net/rapid"

	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// drawIndex draws an index into weights, each index as likely as its
// weight (rapid shrinks towards index 0, the common case).
func drawIndex(t *rapid.T, name string, weights ...int) int {
	sum := 0
	for _, w := range weights {
		sum += w
	}
	x := rapid.IntRange(0, sum-1).Draw(t, name)
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// datagramGen draws a datagram from the header grammar: one to three
// packets (packetGen), then byte flips and a truncation, then maybe zero
// or random padding (RFC 9000 §14.1); and a shortDCIDLen, mostly the
// first packet's DCID length. The weights favour well-formed Initial
// packets, whose header has the most fields, and values at the edges of
// each check.
func datagramGen(t *rapid.T) ([]byte, int) {
	n := 1 + drawIndex(t, "packets", 6, 3, 1)
	if drawIndex(t, "packet count class", 9, 1) == 1 {
		n = rapid.IntRange(4, 300).Draw(t, "many packets")
	}
	var d, firstDCID []byte
	for i := range n {
		p := packetGen(t, i, firstDCID)
		if i == 0 {
			firstDCID = p.DCID
		}
		d = p.Append(d)
	}
	d = mutate(t, d)
	switch drawIndex(t, "padding", 4, 1, 1) {
	case 1:
		d = append(d, make([]byte, rapid.IntRange(1, 64).Draw(t, "zero padding"))...)
	case 2:
		d = append(d, rapid.SliceOfN(rapid.Byte(), 1, 64).Draw(t, "random padding")...)
	}
	sdl := len(firstDCID)
	if sdl > quic.MaxCIDLen || drawIndex(t, "other shortDCIDLen", 3, 1) == 1 {
		sdl = []int{8, 0, 20, 1, 19, -1, 21}[drawIndex(t, "shortDCIDLen", 3, 3, 3, 1, 1, 1, 1)]
	}
	return d, sdl
}

// packetGen draws packet number i of a datagram whose first packet's DCID
// is firstDCID: version and first byte (versionGen, firstGen), CIDs,
// payload, and Token Length and Length values from their classes
// (deltaGen) at any width.
func packetGen(t *rapid.T, i int, firstDCID []byte) PacketSpec {
	var p PacketSpec
	p.Version = versionGen(t)
	p.First = firstGen(t, p.Version)
	if i > 0 && drawIndex(t, "same dcid", 3, 1) == 0 {
		p.DCID = firstDCID
	} else {
		p.DCID = bytesOf(cidLenGen(t, "dcidLen"), rapid.Byte().Draw(t, "dcid"))
	}
	p.SCID = bytesOf(cidLenGen(t, "scidLen"), 0x81)
	n := rapid.IntRange(0, 48).Draw(t, "payload length")
	if i < 2 {
		// Large payloads in the first packets only: a datagram of
		// hundreds of packets stays small.
		n = sizeGen(t, "payload length", 48)
	}
	if drawIndex(t, "payload kind", 1, 1) == 0 {
		p.Payload = bytesOf(n, 0x40)
	} else {
		p.Payload = rapid.SliceOfN(rapid.Byte(), n, n).Draw(t, "payload")
	}
	p.LengthWidth = widthGen(t, "lengthWidth")
	p.LengthDelta = deltaGen(t, "length", len(p.Payload), len(p.Payload))
	if p.packetType() == quic.TypeInitial {
		p.Token = bytesOf(sizeGen(t, "token length", 8), 0x70)
		p.TokenLenWidth = widthGen(t, "tokenLenWidth")
		// The bytes after the Token Length field do not depend on the
		// field's own value.
		built, lay := p.appendWith(nil, quic.AppendVarint)
		p.TokenLenDelta = deltaGen(t, "tokenLen", len(p.Token), len(built)-lay.token)
	}
	return p
}

// sizeGen draws a length by class first, so that every class is reached
// whatever rapid's bias towards small values: up to small (the usual
// case), up to 1500 (a datagram), or each side of 2^8 or 2^16.
func sizeGen(t *rapid.T, name string, small int) int {
	switch drawIndex(t, name+" class", 12, 3, 1, 1) {
	case 1:
		return rapid.IntRange(small+1, 1500).Draw(t, name)
	case 2:
		return 1<<8 + rapid.IntRange(-3, 3).Draw(t, name)
	case 3:
		return 1<<16 + rapid.IntRange(-3, 3).Draw(t, name)
	}
	return rapid.IntRange(0, small).Draw(t, name)
}

// sizeClass is the class of a datagram's length that the datagrams
// property expects to reach.
func sizeClass(n int) string {
	switch {
	case n < 64:
		return "datagram < 64"
	case n < 1200:
		return "datagram 64..1199"
	case n < 1<<16:
		return "datagram 1200..2^16-1"
	}
	return "datagram >= 2^16"
}

// versionGen draws a version: mostly 1 or 2, else Version Negotiation, an
// unknown or greasing version (versions), or any.
func versionGen(t *rapid.T) uint32 {
	switch drawIndex(t, "version class", 6, 1, 1, 1) {
	case 0:
		return []uint32{quic.Version1, quic.Version2}[rapid.IntRange(0, 1).Draw(t, "version")]
	case 1:
		return quic.VersionNegotiation
	case 2:
		return versions[3+rapid.IntRange(0, 1).Draw(t, "version")]
	}
	return rapid.Uint32().Draw(t, "version")
}

// firstGen draws a first byte: mostly a long header of a type of the
// version, else a short header with the Fixed Bit, or any byte; the first
// two with the Fixed Bit cleared now and then, as RFC 9287 lets a peer
// send them.
func firstGen(t *rapid.T, version uint32) byte {
	low := rapid.Byte().Draw(t, "low")
	var first byte
	switch drawIndex(t, "form", 7, 2, 1) {
	case 0:
		first = 0x80 | low
		if _, known := typeBits[version]; known {
			typ := []quic.PacketType{quic.TypeInitial, quic.TypeHandshake, quic.Type0RTT, quic.TypeRetry}[drawIndex(t, "type", 3, 1, 1, 1)]
			first = firstByte(version, typ, low)
		}
	case 1:
		first = 0x40 | low&0x3f
	default:
		return low
	}
	if drawIndex(t, "greased", 4, 1) == 1 {
		first &^= 0x40
	}
	return first
}

// cidLenGen draws a Connection ID length: an edge of the 20-byte limit,
// or any valid length.
func cidLenGen(t *rapid.T, name string) int {
	if drawIndex(t, name+" class", 3, 1) == 0 {
		return []int{8, 0, 20, 1, 19, 21, 255}[drawIndex(t, name, 4, 2, 2, 1, 1, 1, 1)]
	}
	return rapid.IntRange(0, 20).Draw(t, name)
}

// widthGen draws a varint width: the shortest, or 1, 2, 4 or 8 bytes.
func widthGen(t *rapid.T, name string) int {
	return []int{0, 1, 2, 4, 8}[drawIndex(t, name, 4, 1, 1, 1, 1)]
}

// deltaGen draws the class of a length field's value, relative to the
// honest value and to the bytes that follow the field (rest): honest,
// rest+1, rest, rest-1, 0, the sample minimum 20 and its neighbours,
// 2^62-1, or anything near.
func deltaGen(t *rapid.T, name string, honest, rest int) int64 {
	switch drawIndex(t, name, 6, 3, 2, 2, 1, 2, 1, 1) {
	case 1:
		return int64(rest + 1 - honest)
	case 2:
		return int64(rest - honest)
	case 3:
		return int64(rest - 1 - honest)
	case 4:
		return -int64(honest)
	case 5:
		return int64(19 + rapid.IntRange(0, 2).Draw(t, name+" minimum") - honest)
	case 6:
		return math.MaxInt64
	case 7:
		return rapid.Int64Range(-30, 30).Draw(t, name+" near")
	}
	return 0
}

// mutate flips up to three bytes of d and maybe truncates it.
func mutate(t *rapid.T, d []byte) []byte {
	for range []int{0, 1, 2, 3}[drawIndex(t, "flips", 6, 2, 1, 1)] {
		if len(d) == 0 {
			break
		}
		i := rapid.IntRange(0, len(d)-1).Draw(t, "flip at")
		d[i] ^= rapid.Byte().Draw(t, "flip with")
	}
	if drawIndex(t, "truncate", 2, 1) == 1 {
		d = d[:rapid.IntRange(0, len(d)).Draw(t, "truncate to")]
	}
	return d
}
