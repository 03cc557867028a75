package quictest

import (
	"encoding/binary"
	"math"
	"testing"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// Fuzz is the body of a differential fuzz target of impl on datagrams,
// seeded from the corpus: a user's target is one line,
//
//	func FuzzMyParser(f *testing.F) {
//		quictest.Fuzz(f, quictest.Impl{ParseHeader: mypkg.ParseHeader})
//	}
//
// and each input is checked with CheckInput.
func Fuzz(f equiv.F, impl Impl, opts ...equiv.Option) {
	f.Helper()
	FuzzAll(f, []Impl{impl}, opts...)
}

// FuzzAll is Fuzz for several implementations (say, every CPU variant):
// each input is checked on each of impls, and every disagreement is
// reported, labelled with the Impl's Name.
func FuzzAll(f equiv.F, impls []Impl, opts ...equiv.Option) {
	f.Helper()
	fr := validateAll(f, impls)
	equiv.AddSeeds(f, equiv.Suite{Pair: "quic", Corpus: corpus.FS}, targets(Impl{})[0])
	check := func(t equiv.Reporter, datagram []byte, shortDCIDLen int) {
		t.Helper()
		for i, impl := range impls {
			if err := CheckInput(impl, datagram, shortDCIDLen, opts...); err != nil {
				fr.Report(t, i, err)
			}
		}
	}
	if tf, ok := f.(*testing.F); ok {
		tf.Fuzz(func(t *testing.T, datagram []byte, shortDCIDLen int) { check(t, datagram, shortDCIDLen) })
		return
	}
	f.Fuzz(check) // go-118-fuzz-build (see equiv.F)
}

// FuzzStructured is the body of a fuzz target that builds each datagram
// from the header grammar: a PacketSpec that go-fuzz-headers fills from
// the input, optionally a coalesced second copy, byte flips and a
// truncation read from the rest of the input (see CheckStructured). It
// reaches deep header states that byte-level mutation of Fuzz's datagrams
// seldom does.
func FuzzStructured(f equiv.F, impls []Impl, opts ...equiv.Option) {
	f.Helper()
	fr := validateAll(f, impls)
	check := func(t equiv.Reporter, data []byte) {
		t.Helper()
		for i, impl := range impls {
			if err := CheckStructured(impl, data, opts...); err != nil {
				fr.Report(t, i, err)
			}
		}
	}
	tf, ok := f.(*testing.F)
	if !ok {
		f.Fuzz(check) // go-118-fuzz-build: no seeds (see equiv.AddSeeds)
		return
	}
	for _, seed := range structuredSeeds() {
		tf.Add(seed)
	}
	tf.Fuzz(func(t *testing.T, data []byte) { check(t, data) })
}

// FuzzPacketNumber is the body of a fuzz target of DecodePacketNumber
// (see CheckPacketNumber), seeded with RFC 9000 Appendix A.3's example and
// the edges of its arithmetic.
func FuzzPacketNumber(f equiv.F, impls []Impl, opts ...equiv.Option) {
	f.Helper()
	fr := validateAll(f, impls)
	addPNSeeds(f)
	check := func(t equiv.Reporter, largest, truncated uint64, pnLen int) {
		t.Helper()
		for i, impl := range impls {
			if err := CheckPacketNumber(impl, largest, truncated, pnLen, opts...); err != nil {
				fr.Report(t, i, err)
			}
		}
	}
	if tf, ok := f.(*testing.F); ok {
		tf.Fuzz(func(t *testing.T, largest, truncated uint64, pnLen int) { check(t, largest, truncated, pnLen) })
		return
	}
	f.Fuzz(check) // go-118-fuzz-build (see equiv.F)
}

// validateAll fails f once for an Impl that has nothing to check, rather
// than once per input, and returns the reporter of the fuzz target's
// disagreements (see equiv.FuzzReporter).
func validateAll(f equiv.F, impls []Impl) *equiv.FuzzReporter {
	f.Helper()
	fr := equiv.NewFuzzReporter(impls, func(i Impl) string { return i.Name })
	for i, impl := range impls {
		if err := impl.validate(); err != nil {
			f.Fatal(fr.Message(i, err))
		}
	}
	return fr
}

// addPNSeeds adds FuzzQUICPacketNumber's seeds. (It is apart from the
// f.Fuzz call, as equiv.AddSeeds is.)
func addPNSeeds(f equiv.F) {
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
		{0x7fffff, 0, 3},            // candidate = expected - pn_hwin, 3 bytes
		{0xffffffff, 0x80000000, 4}, // candidate = expected + pn_hwin, 4 bytes
		{1<<62 - 1<<31 - 1, 0, 4},   // candidate = 2^62 - pn_win, 4 bytes
		{0, 0x80000001, 4},          // largest 0, the upper edge
	} {
		f.Add(c.largest, c.truncated, c.pnLen)
	}
}

// fuzzSpec is the header grammar that go-fuzz-headers fills from
// FuzzQUICStructured's input, field by field in this order (one byte for
// each integer of at most 8 bits, four big-endian bytes for a uint32, a
// four-byte count and that many bytes for a slice).
type fuzzSpec struct {
	First         byte
	VersionClass  uint8 // mod 8: 0..4 a version class (fuzzVersions), else Version
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

var fuzzVersions = []uint32{quic.Version1, quic.Version2, quic.VersionNegotiation, 0xff00001d, 0x5a6a7a8a}

// packet returns the PacketSpec s describes and the shortDCIDLen to parse
// it with.
func (s fuzzSpec) packet() (PacketSpec, int) {
	version := s.Version
	if c := s.VersionClass % 8; int(c) < len(fuzzVersions) {
		version = fuzzVersions[c]
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
	return PacketSpec{
		First: s.First, Version: version, DCID: s.DCID, SCID: s.SCID,
		Token: s.Token, TokenLenDelta: delta(s.TokenLenDelta), TokenLenWidth: widths[s.TokenLenWidth%5],
		LengthDelta: delta(s.LengthDelta), LengthWidth: widths[s.LengthWidth%5],
		Payload: s.Payload,
	}, sdl
}

// encode is the inverse of GenerateStruct on a fuzzSpec, for seeds.
func (s fuzzSpec) encode() []byte {
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

// decodeStructured builds the datagram that an input of
// FuzzQUICStructured describes: the packet of a fuzzSpec filled from
// data, then, while data lasts, a coalesced copy (bit 0 of the next
// byte), up to three byte flips (bits 1-2: that many positions and XOR
// masks) and a truncation (bit 3, at the position that follows), and
// last, if data lasts, a shape byte and a signed delta d (shaped) that
// reach the suite's size classes. Inputs that end before the shape byte
// decode as they did before it existed.
func decodeStructured(data []byte) ([]byte, int) {
	c := fuzzheaders.NewConsumer(data)
	var s fuzzSpec
	_ = c.GenerateStruct(&s) // a short input leaves the rest zero
	p, sdl := s.packet()
	b, err := c.GetByte()
	if err != nil {
		return p.Append(nil), sdl
	}
	type flip struct {
		pos  uint16
		mask byte
	}
	var flips []flip
	for range b >> 1 & 3 {
		pos, err1 := c.GetUint16()
		mask, err2 := c.GetByte()
		if err1 != nil || err2 != nil {
			break
		}
		flips = append(flips, flip{pos, mask})
	}
	cut, cutErr := c.GetUint16()
	shape, _ := c.GetByte()
	delta, _ := c.GetByte()
	d := shaped(p, shape, int8(delta), b&1 != 0)
	for _, f := range flips {
		if len(d) == 0 {
			break
		}
		d[int(f.pos)%len(d)] ^= f.mask
	}
	if cutErr == nil && b&8 != 0 {
		d = d[:int(cut)%(len(d)+1)]
	}
	return d, sdl
}

// shaped builds p's datagram (twice if twice), changed by the shape byte:
// bits 0-1 repeat the packet to 2^8 + d%4 - 1 packets (1), or set its
// Length to 2^16 + d (2) or 2^32 + d (3); bits 2-3 grow the Payload to
// 2^10 + d bytes (a Version Negotiation list of 2^8 versions) (1), 2^16 +
// d (2) or 2^18 + d (2^16 versions) (3); bit 4 grows the Token to 2^16 + d
// bytes and bit 5 sets the Token Length to 2^16 + d. A repeated packet is
// not grown: 2^8 copies of a 2^18-byte packet made a 64 MiB datagram that
// took seconds per execution, and no bug needs both.
func shaped(p PacketSpec, shape byte, d int8, twice bool) []byte {
	grow := shape&3 != 1
	if n := []int{0, 1 << 10, 1 << 16, 1 << 18}[shape>>2&3]; n > 0 && grow {
		p.Payload = bytesOf(n+int(d), 0x40)
	}
	if shape&0x10 != 0 && grow {
		p.Token = bytesOf(1<<16+int(d), 0x70)
	}
	switch shape & 3 {
	case 2:
		p.LengthDelta = 1<<16 + int64(d) - int64(len(p.Payload))
	case 3:
		p.LengthDelta = 1<<32 + int64(d) - int64(len(p.Payload))
	}
	if shape&0x20 != 0 {
		p.TokenLenDelta = 1<<16 + int64(d) - int64(len(p.Token))
	}
	copies := 1
	if twice {
		copies = 2
	}
	if shape&3 == 1 {
		copies = 1<<8 + int(d&3) - 1
	}
	var out []byte
	for range copies {
		out = p.Append(out)
	}
	return out
}

// structuredSeeds are FuzzQUICStructured's seeds: RFC 9001's client
// Initial header, version 2 Handshake, a Retry, a Token Length past the
// datagram, a 1-RTT and a Version Negotiation packet, each alone and
// coalesced twice with a byte flipped.
func structuredSeeds() [][]byte {
	dcid := []byte{0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08}
	pad := make([]byte, 24)
	var seeds [][]byte
	for _, s := range []fuzzSpec{
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
		seeds = append(seeds, s.encode(), append(s.encode(), 3, 0, 7, 0, 0xff)) // coalesced twice, byte 7 flipped
	}
	// The size classes: 256 Handshake packets, a Length of 2^16 and of
	// 2^32+20 in a short packet, 256 and 65536 versions, a 2^16-byte
	// token and a Token Length of 2^16+3 (after no flip, and a cut of 3
	// bytes, two and the byte order, not applied).
	hs := fuzzSpec{First: 0xe0, VersionClass: 0, DCID: dcid, Payload: pad[:1], ShortDCIDLen: 8}
	vn := fuzzSpec{First: 0x80, VersionClass: 2, DCID: dcid}
	initial := fuzzSpec{First: 0xc0, VersionClass: 0, DCID: dcid, Token: []byte{1}, Payload: pad}
	for _, sh := range []struct {
		spec         fuzzSpec
		shape, delta byte
	}{{hs, 0x01, 1}, {hs, 0x02, 0}, {hs, 0x03, 20}, {vn, 0x04, 0}, {vn, 0x0c, 0}, {initial, 0x10, 0}, {initial, 0x20, 3}} {
		seeds = append(seeds, append(sh.spec.encode(), 0, 0, 0, 0, sh.shape, sh.delta))
	}
	return seeds
}
