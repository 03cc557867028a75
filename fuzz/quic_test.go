package fuzz

import (
	"encoding/binary"
	"math"
	"testing"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/registry"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// FuzzQUICHeader checks, for every available variant and the dispatching
// API, ParseHeader(datagram, shortDCIDLen), the Packets sequence (whole and
// stopped after each packet), ParseVarint(datagram) and AppendVarint of the
// value it decodes, against the reference: every Header method, errors by
// identity, panics by value (equiv.CheckQUICInput).
func FuzzQUICHeader(f *testing.F) {
	seed(f, "quic")
	variants := registry.QUICVariants()
	f.Fuzz(func(t *testing.T, datagram []byte, shortDCIDLen int) {
		for _, v := range variants {
			if !v.Available {
				continue
			}
			if err := equiv.CheckQUICInput(v.Impl, datagram, shortDCIDLen); err != nil {
				t.Errorf("variant %s: %v", v.Name, err)
			}
		}
	})
}

// quicFuzzSpec is the header grammar that go-fuzz-headers fills from
// FuzzQUICStructured's input, field by field in this order (one byte for
// each integer of at most 8 bits and for int8/uint64 alike, four big-endian
// bytes for a uint32, a four-byte count and that many bytes for a slice).
type quicFuzzSpec struct {
	First         byte
	VersionClass  uint8 // mod 8: 0..4 a version class (quicFuzzVersions), else Version
	Version       uint32
	DCID, SCID    []byte
	Token         []byte
	TokenLenDelta int8  // -128: 2^62-1
	TokenLenWidth uint8 // mod 5: shortest, 1, 2, 4, 8 bytes
	LengthDelta   int8  // -128: 2^62-1
	LengthWidth   uint8
	Payload       []byte
	ShortDCIDLen  uint8 // mod 24: 0..21 as is, 22 is -1, 23 is len(DCID)
}

var quicFuzzVersions = []uint32{quic.Version1, quic.Version2, quic.VersionNegotiation, 0xff00001d, 0x5a6a7a8a}

func (s quicFuzzSpec) packet() (equiv.QUICPacketSpec, int) {
	version := s.Version
	if c := s.VersionClass % 8; int(c) < len(quicFuzzVersions) {
		version = quicFuzzVersions[c]
	}
	delta := func(d int8) int64 {
		if d == math.MinInt8 {
			return math.MaxInt64
		}
		return int64(d)
	}
	widths := []int{0, 1, 2, 4, 8}
	sdl := int(s.ShortDCIDLen % 24)
	switch sdl {
	case 22:
		sdl = -1
	case 23:
		sdl = len(s.DCID)
	}
	return equiv.QUICPacketSpec{
		First: s.First, Version: version, DCID: s.DCID, SCID: s.SCID,
		Token: s.Token, TokenLenDelta: delta(s.TokenLenDelta), TokenLenWidth: widths[s.TokenLenWidth%5],
		LengthDelta: delta(s.LengthDelta), LengthWidth: widths[s.LengthWidth%5],
		Payload: s.Payload,
	}, sdl
}

// encode is the inverse of GenerateStruct on a quicFuzzSpec, for seeds.
func (s quicFuzzSpec) encode() []byte {
	b := []byte{s.First, s.VersionClass}
	b = binary.BigEndian.AppendUint32(b, s.Version)
	for _, f := range [][]byte{s.DCID, s.SCID, s.Token} {
		b = binary.BigEndian.AppendUint32(b, uint32(len(f)))
		b = append(b, f...)
	}
	b = append(b, byte(s.TokenLenDelta), s.TokenLenWidth, byte(s.LengthDelta), s.LengthWidth)
	b = binary.BigEndian.AppendUint32(b, uint32(len(s.Payload)))
	b = append(b, s.Payload...)
	return append(b, s.ShortDCIDLen)
}

// FuzzQUICStructured builds a datagram from the header grammar (a
// quicFuzzSpec that go-fuzz-headers fills from data, serialized by
// equiv.QUICPacketSpec), optionally coalesces a second copy, mutates it
// (byte flips and a truncation, read from the rest of data) and checks
// every variant on it with equiv.CheckQUICInput.
func FuzzQUICStructured(f *testing.F) {
	dcid := []byte{0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08}
	pad := make([]byte, 24)
	for _, s := range []quicFuzzSpec{
		// RFC 9001 Appendix A.2's client Initial header, Length on 2 bytes.
		{First: 0xc3, VersionClass: 0, DCID: dcid, LengthWidth: 2, Payload: pad, ShortDCIDLen: 0},
		// Version 2 Handshake, and a Retry.
		{First: 0xf1, VersionClass: 1, DCID: dcid, SCID: dcid[:4], Payload: pad, ShortDCIDLen: 8},
		{First: 0xf0, VersionClass: 0, SCID: dcid, Payload: append([]byte("token"), pad[:16]...)},
		// A Token Length (on 4 bytes) past the end of the datagram.
		{First: 0xc0, VersionClass: 0, DCID: dcid, Token: []byte{1, 2}, TokenLenDelta: 40, TokenLenWidth: 3, Payload: pad},
		// A 1-RTT packet with its DCID, and a Version Negotiation packet.
		{First: 0x61, DCID: dcid, Payload: pad, ShortDCIDLen: 23},
		{First: 0x80, VersionClass: 2, DCID: dcid, Payload: []byte{0, 0, 0, 1, 0x6b, 0x33, 0x43, 0xcf}},
	} {
		f.Add(s.encode())
		f.Add(append(s.encode(), 3, 0, 7, 0, 0xff)) // coalesced twice, byte 7 flipped
	}
	variants := registry.QUICVariants()
	f.Fuzz(func(t *testing.T, data []byte) {
		c := fuzzheaders.NewConsumer(data)
		var s quicFuzzSpec
		_ = c.GenerateStruct(&s) // a short input leaves the rest zero
		p, sdl := s.packet()
		d := p.Append(nil)
		// Then, while data lasts: a coalesced copy (bit 0), up to three
		// byte flips (position, XOR mask) and a truncation.
		if b, err := c.GetByte(); err == nil {
			if b&1 != 0 {
				d = p.Append(d)
			}
			for range b >> 1 & 3 {
				pos, err1 := c.GetUint16()
				mask, err2 := c.GetByte()
				if err1 != nil || err2 != nil || len(d) == 0 {
					break
				}
				d[int(pos)%len(d)] ^= mask
			}
			if cut, err := c.GetUint16(); err == nil && b&8 != 0 {
				d = d[:int(cut)%(len(d)+1)]
			}
		}
		for _, v := range variants {
			if !v.Available {
				continue
			}
			if err := equiv.CheckQUICInput(v.Impl, d, sdl); err != nil {
				t.Errorf("variant %s: %v", v.Name, err)
			}
		}
	})
}

// FuzzQUICPacketNumber checks DecodePacketNumber(largest, truncated,
// pnLen) of every available variant and the dispatching API against the
// reference: the packet number, or the panic (pnLen outside 1..4, largest
// in [2^62, 2^64-2]), which must be the reference's.
func FuzzQUICPacketNumber(f *testing.F) {
	for _, c := range []struct {
		largest, truncated uint64
		pnLen              int
	}{
		{0xa82f30ea, 0x9b32, 2},         // RFC 9000 §17.1, Appendix A.3
		{10, 0xff, 1},                   // expected_pn < pn_hwin: 255, not 511
		{0x1ef, 0x05, 1},                // candidate + pn_win
		{0x100, 0xf0, 1},                // candidate - pn_win
		{1<<62 - 129, 0x00, 1},          // the strict 2^62 limit
		{math.MaxUint64, 0x12345678, 4}, // no packet yet
		{1 << 62, 0, 1},                 // panics
		{0, 0, 0},                       // panics
		{1<<62 - 1, 0xffffffff, 4},
	} {
		f.Add(c.largest, c.truncated, c.pnLen)
	}
	variants := registry.QUICVariants()
	f.Fuzz(func(t *testing.T, largest, truncated uint64, pnLen int) {
		for _, v := range variants {
			if !v.Available {
				continue
			}
			if err := equiv.CheckQUICPacketNumber(v.Impl, largest, truncated, pnLen); err != nil {
				t.Errorf("variant %s: %v", v.Name, err)
			}
		}
	})
}
