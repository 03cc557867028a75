package quictest

import (
	"bytes"
	"fmt"
	"math"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// The exhaustive method's header grammar: datagrams built by class, each
// swept at every truncation point and with trailing junk.

// versions are the version classes of the structured enumeration: Version
// Negotiation, the two versions with a layout, a version this package does
// not know (draft-29) and a reserved greasing version of the form
// 0x?a?a?a?a (RFC 9000 §15).
var versions = []uint32{quic.VersionNegotiation, quic.Version1, quic.Version2, 0xff00001d, 0x5a6a7a8a}

// canonical returns a well-formed packet of the type that first and
// version select, with CIDs of the given lengths (which may be out of
// range on purpose): Initial, 0-RTT and Handshake packets with a 24-byte
// Packet Number and payload (Length 24), a Retry with a 5-byte token and
// its tag, a Version Negotiation list of three versions, 6 opaque bytes for
// other versions.
func canonical(first byte, version uint32, dcidLen, scidLen int) PacketSpec {
	p := PacketSpec{First: first, Version: version, DCID: bytesOf(dcidLen, 0x11), SCID: bytesOf(scidLen, 0x81)}
	switch p.packetType() {
	case quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake:
		p.Payload = bytesOf(24, 0x40)
	case quic.TypeRetry:
		p.Payload = append([]byte("token"), bytesOf(quic.RetryIntegrityTagLen, 0xe0)...)
	case quic.TypeVersionNegotiation:
		p.Payload = unhex("000000016b3343cf0a1a2a3a")
	default:
		p.Payload = bytesOf(6, 0x30)
	}
	return p
}

// headerSDLs are the shortDCIDLen values the enumeration parses with.
var headerSDLs = []int{0, 8, 20}

// shortHeaders checks every first byte with Header Form 0, each
// shortDCIDLen in {0, 8, 20} with 24 bytes after the DCID (at every
// truncation: every length around the 20-byte minimum), and the invalid
// shortDCIDLen -1 and 21 once.
func (c *checker) shortHeaders(r *equiv.Run) error {
	for first := range 0x80 {
		for _, sdl := range headerSDLs {
			p := PacketSpec{First: byte(first), DCID: bytesOf(sdl, 0x11), Payload: bytesOf(24, 0x40)}
			if err := c.sweepWith(r, p.Append(nil), sdl, fmt.Sprintf("short first=%#02x", first), grammarChecks); err != nil {
				return err
			}
		}
		p := PacketSpec{First: byte(first), DCID: bytesOf(8, 0x11), Payload: bytesOf(24, 0x40)}
		if err := c.invalidSDL(r, p.Append(nil)); err != nil {
			return err
		}
	}
	return nil
}

// longHeaders checks every first byte with Header Form 1 × every version
// class, with 8-byte CIDs and a well-formed rest for the type.
func (c *checker) longHeaders(r *equiv.Run) error {
	for first := 0x80; first <= 0xff; first++ {
		for i, version := range versions {
			d := canonical(byte(first), version, 8, 8).Append(nil)
			if err := c.sweepWith(r, d, headerSDLs[(first+i)%3], fmt.Sprintf("long first=%#02x version=%#08x", first, version), grammarChecks); err != nil {
				return err
			}
			if err := c.invalidSDL(r, d); err != nil {
				return err
			}
		}
	}
	return nil
}

// invalidSDL checks d with the invalid shortDCIDLen values -1 and 21.
func (c *checker) invalidSDL(r *equiv.Run, d []byte) error {
	for _, sdl := range []int{-1, 21} {
		ce, k := c.inputWith(d, sdl, grammarChecks)
		if ce != nil {
			return r.Fail(ce)
		}
		r.Count(k)
	}
	return nil
}

// cidLengths checks every class of DCID Length × every class of SCID
// Length × version, on first bytes covering the Fixed Bit and every Long
// Packet Type (low nibble varied).
func (c *checker) cidLengths(r *equiv.Run) error {
	cids := equiv.Pick(r, []int{0, 1, 8, 19, 20, 21, 255}, intRange(0, 21, 255), intRange(0, 21, 254, 255))
	var firsts []byte
	for top := byte(0x8); top <= 0xf; top++ {
		for k := range equiv.Pick(r, 1, 2, 16) {
			firsts = append(firsts, top<<4|byte(k*7+int(top))&0x0f)
		}
	}
	for _, version := range versions {
		for j, first := range firsts {
			if !r.Thin(j) {
				continue // go test -short: another sample's first byte
			}
			for _, dl := range cids {
				for _, sl := range cids {
					d := canonical(first, version, dl, sl).Append(nil)
					if err := c.sweepWith(r, d, 8, fmt.Sprintf("cids first=%#02x version=%#08x dcid=%d scid=%d", first, version, dl, sl), fieldChecks); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// intRange returns lo..hi and then extra.
func intRange(lo, hi int, extra ...int) []int {
	var out []int
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return append(out, extra...)
}

// lengthFields checks the Token Length and Length fields: for versions 1
// and 2, Initial, 0-RTT and Handshake packets with each class of value (0,
// the sample minimum 20 and its neighbours, remaining-1, remaining,
// remaining+1, 2^62-1) at each width it fits, non-minimal ones included.
func (c *checker) lengthFields(r *equiv.Run) error {
	cidPairs := equiv.Pick(r, [][2]int{{8, 8}},
		[][2]int{{0, 0}, {8, 8}, {20, 20}, {0, 20}},
		[][2]int{{0, 0}, {1, 0}, {8, 8}, {20, 20}, {0, 20}, {20, 1}})
	for vi, version := range []uint32{quic.Version1, quic.Version2} {
		for ti, typ := range []quic.PacketType{quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake} {
			if !r.Thin(vi*3 + ti) {
				continue // go test -short: another sample's version and type
			}
			for _, cp := range cidPairs {
				first := firstByte(version, typ, byte(ti*5+cp[0]))
				p := PacketSpec{First: first, Version: version, DCID: bytesOf(cp[0], 0x11), SCID: bytesOf(cp[1], 0x81), Payload: bytesOf(24, 0x40)}
				if err := c.lengthClasses(r, p); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// tokenClass is a Token and the class of its Token Length field: len+delta,
// or (remaining) the bytes after the field plus rel.
type tokenClass struct {
	token     []byte
	delta     int64
	remaining bool
	rel       int64
}

// tokenClasses are the Token classes of a packet: none but the empty
// Token without a Token Length field (not an Initial); else a 0-, 1- and
// 5-byte Token with an honest Token Length, and the 5-byte Token with
// remaining-1, remaining, remaining+1, 0 and 2^62-1.
func tokenClasses(initial bool) []tokenClass {
	if !initial {
		return []tokenClass{{}}
	}
	t5 := bytesOf(5, 0x70)
	tokens := []tokenClass{{}, {token: []byte{0x7a}}, {token: t5}}
	for _, rel := range []int64{-1, 0, 1} {
		tokens = append(tokens, tokenClass{token: t5, remaining: true, rel: rel})
	}
	return append(tokens, tokenClass{token: t5, delta: -5}, tokenClass{token: t5, delta: math.MaxInt64})
}

// lengthClasses sweeps p with its Length field set to each class of value
// (0, 1, 19, 20, 21, payload-1, payload, payload+1, 2^62-1) at each width
// it fits, and with each of its Token classes.
func (c *checker) lengthClasses(r *equiv.Run, p PacketSpec) error {
	payload := int64(len(p.Payload))
	lengthDeltas := []int64{-payload, 1 - payload, 19 - payload, 20 - payload, 21 - payload, -1, 0, 1, math.MaxInt64}
	for _, tc := range tokenClasses(p.packetType() == quic.TypeInitial) {
		for _, ld := range lengthDeltas {
			for _, lw := range varintWidths {
				q := p
				q.Token, q.LengthDelta, q.LengthWidth = tc.token, ld, lw
				if !fits(addClamped(len(q.Payload), ld), lw) {
					continue
				}
				if err := c.tokenLengths(r, q, tc); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// tokenLengths sweeps q with its Token Length field of class tc at each
// width it fits (once for a packet without a Token Length).
func (c *checker) tokenLengths(r *equiv.Run, q PacketSpec, tc tokenClass) error {
	initial := q.packetType() == quic.TypeInitial
	for _, tw := range varintWidths {
		q.TokenLenDelta, q.TokenLenWidth = tc.delta, tw
		if tc.remaining {
			// remaining+rel: the bytes after the Token Length field,
			// which do not depend on its own value.
			q.TokenLenDelta = 0
			d, lay := q.appendWith(nil, quic.AppendVarint)
			q.TokenLenDelta = int64(len(d)-lay.token) + tc.rel - int64(len(tc.token))
		}
		if initial && !fits(addClamped(len(q.Token), q.TokenLenDelta), tw) {
			continue
		}
		from := fmt.Sprintf("fields first=%#02x version=%#08x token=%d tokenLenDelta=%d/%dB lengthDelta=%d/%dB",
			q.First, q.Version, len(q.Token), q.TokenLenDelta, tw, q.LengthDelta, q.LengthWidth)
		if err := c.sweepWith(r, q.Append(nil), 8, from, fieldChecks); err != nil {
			return err
		}
		if !initial {
			break // no Token Length
		}
	}
	return nil
}

// named is a test datagram with a name for messages and the shortDCIDLen
// to parse it with.
type named struct {
	name string
	data []byte
	sdl  int
}

// coalesceSet is a set of packets, one of each kind that ends a packet
// differently, sharing one DCID except where noted.
func coalesceSet() []named {
	dcid := bytesOf(8, 0x11)
	long := func(v uint32, t quic.PacketType, payload int, dcid []byte) []byte {
		return PacketSpec{First: firstByte(v, t, 0x3), Version: v, DCID: dcid, SCID: bytesOf(4, 0x81), Payload: bytesOf(payload, 0x40)}.Append(nil)
	}
	return []named{
		{name: "initial", data: long(quic.Version1, quic.TypeInitial, 24, dcid)},
		{name: "0rtt-v2", data: long(quic.Version2, quic.Type0RTT, 20, dcid)},
		{name: "handshake", data: long(quic.Version1, quic.TypeHandshake, 21, dcid)},
		{name: "handshake-short", data: long(quic.Version1, quic.TypeHandshake, 19, dcid)},
		{name: "handshake-other-dcid", data: long(quic.Version1, quic.TypeHandshake, 24, bytesOf(8, 0x12))},
		{name: "initial-empty-dcid", data: long(quic.Version2, quic.TypeInitial, 20, nil)},
		{name: "1rtt", data: PacketSpec{First: 0x41, DCID: dcid, Payload: bytesOf(20, 0x40)}.Append(nil)},
		{name: "retry", data: canonical(0xf0, quic.Version1, 8, 4).Append(nil)},
		{name: "vn", data: canonical(0x80, quic.VersionNegotiation, 8, 4).Append(nil)},
		{name: "unknown-version", data: canonical(0xc0, 0xff00001d, 8, 4).Append(nil)},
		{name: "zero-padding", data: make([]byte, 3)},
	}
}

// coalesced checks every ordered pair (at Standard and Deep, triple) of
// coalesceSet, as one datagram.
func (c *checker) coalesced(r *equiv.Run) error {
	set := coalesceSet()
	for _, a := range set {
		for _, b := range set {
			d := append(bytes.Clone(a.data), b.data...)
			if err := c.sweepWith(r, d, 8, "coalesced "+a.name+"+"+b.name, grammarChecks); err != nil {
				return err
			}
			if r.Level() == equiv.Quick {
				continue
			}
			for _, e := range set {
				d := append(bytes.Clone(d), e.data...)
				if err := c.sweepWith(r, d, 8, "coalesced "+a.name+"+"+b.name+"+"+e.name, grammarChecks); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
