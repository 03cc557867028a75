package quictest

import (
	"bytes"
	"fmt"

	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// fields are the fields of a packet of the round-trip law: a type with a
// layout (Initial, 0-RTT, Handshake, Retry or 1-RTT) of version 1 or 2.
type fields struct {
	typ                        quic.PacketType
	low                        byte // the Type-Specific Bits
	version                    uint32
	spin                       bool
	dcid, scid, token, payload []byte
	pnLen                      int // the Packet Number's length
	tw, lw                     int // the Token Length's and Length's widths
}

// newFields turns a law's draws into fields: CIDs cut to 20 bytes, and a
// Retry's empty token replaced by one byte.
func newFields(kind, low uint8, v2, spin bool, dcid, scid, token, payload []byte, pnLen, tw, lw int) fields {
	f := fields{
		typ:     [...]quic.PacketType{quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake, quic.TypeRetry, quic.Type1RTT}[kind%5],
		low:     low,
		version: quic.Version1,
		spin:    spin,
		dcid:    dcid[:min(len(dcid), quic.MaxCIDLen)],
		scid:    scid[:min(len(scid), quic.MaxCIDLen)],
		token:   token, payload: payload, pnLen: pnLen, tw: tw, lw: lw,
	}
	if v2 {
		f.version = quic.Version2
	}
	if f.typ == quic.TypeRetry && len(f.token) == 0 {
		f.token = []byte{0}
	}
	return f
}

// spec returns the packet's PacketSpec and body: the Packet Number (pnLen
// bytes), then the payload.
func (f fields) spec() (PacketSpec, []byte) {
	p := PacketSpec{Version: f.version, DCID: f.dcid, SCID: f.scid, TokenLenWidth: f.tw, LengthWidth: f.lw}
	body := append(bytesOf(f.pnLen, 0x01), f.payload...)
	if f.typ == quic.Type1RTT {
		p.First = 0x40 | f.low&0x1f
		if f.spin {
			p.First |= 0x20
		}
	} else {
		p.First = firstByte(f.version, f.typ, f.low)
	}
	switch f.typ {
	case quic.TypeRetry:
		p.Payload = append(bytes.Clone(f.token), bytesOf(quic.RetryIntegrityTagLen, 0xe0)...)
	case quic.TypeInitial:
		p.Token = f.token
		p.Payload = body
	default:
		p.Payload = body
	}
	return p, body
}

// roundTrip builds the packet f describes, followed by the start of
// another packet where it has a Length, parses it with the Impl, and
// returns "" if every method reports the field it was built from.
func (c *checker) roundTrip(f fields) (problem string, inScope bool) {
	p, body := f.spec()
	d, lay := p.appendWith(nil, c.appender())
	sdl := 0
	if f.typ == quic.Type1RTT {
		sdl = len(f.dcid)
	}
	full := len(d)
	if lay.pnOffset > 0 && f.typ != quic.Type1RTT {
		d = append(d, 0x00, 0x40, 0xff) // the next packet: not part of this one
	}
	if !c.inScope(Input{Func: funcParseHeader, Data: d, ShortDCIDLen: sdl}) {
		return "", false
	}
	noted := func(b []byte, sdl int) (quic.Header, error) {
		c.h.Note(cParseHeader)
		return c.impl.ParseHeader(b, sdl)
	}
	got := parseWith(noted, d, sdl, c.cfg.MapError, nil)
	want := f.expected(lay, len(body), full)
	if got.panic != nil || got.view != want {
		return fmt.Sprintf("built %x (shortDCIDLen=%d): parsed as %v, want %v", d, sdl, got, want), true
	}
	return "", true
}

// expected is the view of the packet f describes, laid out as lay, with a
// body of bodyLen bytes and full bytes in all.
func (f fields) expected(lay layout, bodyLen, full int) hdrView {
	// sp is a span of n bytes at off; an empty slice is at 0.
	sp := func(off, n int) span {
		if n == 0 {
			off = 0
		}
		return span{off: off, len: n, cap: n}
	}
	none := span{isNil: true}
	want := hdrView{typ: f.typ, version: f.version, dcid: sp(6, len(f.dcid)), scid: sp(7+len(f.dcid), len(f.scid)),
		token: none, versions: none, tag: none, packet: sp(0, full)}
	switch f.typ {
	case quic.Type1RTT:
		want.version, want.scid, want.spin = 0, none, f.spin
		want.dcid = sp(1, len(f.dcid))
		want.pnOffset = 1 + len(f.dcid)
	case quic.TypeRetry:
		want.token = sp(7+len(f.dcid)+len(f.scid), len(f.token))
		want.tag = sp(full-quic.RetryIntegrityTagLen, quic.RetryIntegrityTagLen)
		return want
	case quic.TypeInitial:
		want.token = sp(lay.token, len(f.token))
		fallthrough
	default:
		want.length, want.pnOffset = uint64(bodyLen), lay.pnOffset
	}
	if bodyLen < 4+quic.SampleLen {
		want.err = quic.ErrPacketTooShort
	}
	return want
}
