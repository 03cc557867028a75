package equiv

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"strings"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/equiv/internal/quicvectors"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// quicJunk follows a datagram in the "trailing junk" checks: bytes that
// read as a long header of version 1 with a 21-byte DCID if a parser
// wrongly starts there, and as a non-minimal varint.
var quicJunk = []byte{0xc0, 0x00, 0x00, 0x00, 0x01, 0x15, 0x40, 0x25, 0xff, 0x00, 0x80, 0x7f, 0x3f, 0x01, 0xaa, 0x55}

// sweep checks data at every truncation point, data[:n] for n = 0..len,
// and data followed by trailing junk, with CheckQUICInput's checks.
func (s *quicSuite) sweep(r *run, data []byte, sdl int, from string) error {
	for n := 0; n <= len(data)+1; n++ {
		d, what := data[:min(n, len(data)):min(n, len(data))], fmt.Sprintf("trunc=%d/%d", n, len(data))
		if n > len(data) {
			d, what = append(bytes.Clone(data), quicJunk...), "+junk"
		}
		ce, k := s.checkInput(d, sdl)
		if ce != nil {
			ce.Args += " from=" + from + " " + what
			return r.mismatch(ce)
		}
		r.count(k)
	}
	return nil
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic("equiv: bad hex: " + err.Error())
	}
	return b
}

// vectors checks the RFC vectors of equiv/internal/quicvectors: first the
// reference against their expected values (a disagreement there is the
// oracle's, and reported as such), then the implementation against the
// reference on each vector, at every truncation and with trailing junk.
func (s *quicSuite) vectors(r *run) error {
	// RFC 9000 Appendix A.1: varints, including the non-minimal 0x4025.
	for _, v := range quicvectors.Varints {
		enc := unhex(v.Hex)
		if val, n, err := quic.ParseVarint(enc); val != v.Value || n != v.Len || err != nil {
			return fmt.Errorf("quic/vectors: reference ParseVarint(%s) = %d, %d, %v, want %d, %d, nil (%s): the oracle is wrong", v.Hex, val, n, err, v.Value, v.Len, v.Source)
		}
		if quic.VarintLen(v.Value) == v.Len {
			if got := quic.AppendVarint(nil, v.Value); !bytes.Equal(got, enc) {
				return fmt.Errorf("quic/vectors: reference AppendVarint(%d) = %x, want %s (%s): the oracle is wrong", v.Value, got, v.Hex, v.Source)
			}
		}
		if ce := s.checkVarint(enc, false); ce != nil {
			ce.Args += " vector=" + v.Source
			return r.mismatch(ce)
		}
		r.count(1)
		for _, spare := range []bool{false, true} {
			if ce := s.checkAppend(nil, v.Value, spare); ce != nil {
				ce.Args += " vector=" + v.Source
				return r.mismatch(ce)
			}
			if s.impl.AppendVarint != nil {
				r.count(1)
			}
		}
		junk := append(bytes.Clone(enc), quicJunk...)
		for n := 0; n <= len(junk); n++ {
			if ce := s.checkVarint(junk[:n:n], true); ce != nil {
				ce.Args += fmt.Sprintf(" vector=%s trunc=%d", v.Source, n)
				return r.mismatch(ce)
			}
			r.count(1)
		}
	}

	// RFC 9000 Appendix A.3: packet numbers, including largest 10,
	// truncated 0xff, 1 byte, which a literal uint64 port decodes as 511.
	for _, v := range quicvectors.PacketNumbers {
		if got := quic.DecodePacketNumber(v.Largest, v.Truncated, v.PNLen); got != v.Want {
			return fmt.Errorf("quic/vectors: reference DecodePacketNumber(%#x, %#x, %d) = %#x, want %#x (%s): the oracle is wrong", v.Largest, v.Truncated, v.PNLen, got, v.Want, v.Source)
		}
		if s.impl.DecodePacketNumber == nil {
			continue
		}
		// The vector, with junk above the pnLen bytes (which must be
		// ignored), and with every other pnLen.
		for pnLen := 1; pnLen <= 4; pnLen++ {
			for _, high := range []uint64{0, 0xdead_beef_cafe_f00d &^ (1<<(8*pnLen) - 1)} {
				if ce := s.checkPN(v.Largest, v.Truncated|high, pnLen); ce != nil {
					ce.Args += " vector=" + v.Source
					return r.mismatch(ce)
				}
				r.count(1)
			}
		}
	}

	// RFC 9001 Appendix A and RFC 9369 Appendix A packets (unprotected
	// headers and protected packets), and hand-built ones of every type.
	for _, v := range quicvectors.Packets {
		b := v.Bytes()
		h, err := quic.ParseHeader(b, v.ShortDCIDLen)
		if problem := quicOracleHeader(b, h, err, v); problem != "" {
			return fmt.Errorf("quic/vectors: reference ParseHeader on %s (%s): %s: the oracle is wrong", v.Name, v.Source, problem)
		}
		if err := s.sweep(r, b, v.ShortDCIDLen, "vector "+v.Name); err != nil {
			return err
		}
	}

	// Datagrams with one problem each (or two, for precedence).
	for _, v := range quicvectors.BadPackets {
		b := v.Bytes()
		want, ok := quicErrors[v.Err]
		if !ok {
			return fmt.Errorf("quic/vectors: %s: unknown error name %q", v.Name, v.Err)
		}
		h, err := quic.ParseHeader(b, v.ShortDCIDLen)
		hv := viewOf(b, h, nil)
		if err != want || (err != quic.ErrPacketTooShort && hv != zeroHdrView) || (err == quic.ErrPacketTooShort && hv == zeroHdrView) {
			return fmt.Errorf("quic/vectors: reference ParseHeader on %s (%s) = %v, want %s with %s: the oracle is wrong",
				v.Name, v.Source, viewOf(b, h, err), v.Err, map[bool]string{true: "a complete Header", false: "the zero Header"}[want == quic.ErrPacketTooShort])
		}
		if err := s.sweep(r, b, v.ShortDCIDLen, "bad packet "+v.Name); err != nil {
			return err
		}
	}

	// Coalesced packets (RFC 9000 §12.2).
	for _, v := range quicvectors.Datagrams {
		b := v.Bytes()
		got := runPackets(quic.Packets, b, v.ShortDCIDLen, 0)
		if problem := quicOracleDatagram(got, v); problem != "" {
			return fmt.Errorf("quic/vectors: reference Packets on %s (%s) = %v: %s: the oracle is wrong", v.Name, v.Source, got, problem)
		}
		if err := s.sweep(r, b, v.ShortDCIDLen, "datagram "+v.Name); err != nil {
			return err
		}
	}
	return nil
}

// quicOracleHeader compares what the reference parsed from a vector with
// the vector's expected fields, and with the rules every Header keeps
// (slices in the input, capacity clipped, nil where the type has no such
// field).
func quicOracleHeader(b []byte, h quic.Header, err error, v quicvectors.Packet) string {
	if err != nil {
		return fmt.Sprintf("error %v", err)
	}
	var problems []string
	check := func(ok bool, format string, args ...any) {
		if !ok {
			problems = append(problems, fmt.Sprintf(format, args...))
		}
	}
	t := h.Type()
	check(t.String() == v.Type, "Type = %v, want %s", t, v.Type)
	check(h.Version() == v.Version, "Version = %#x, want %#x", h.Version(), v.Version)
	slice := func(name string, got []byte, want string, present bool) {
		check(hex.EncodeToString(got) == want, "%s = %x, want %s", name, got, want)
		check((got != nil) == present, "%s nil = %v, want %v", name, got == nil, !present)
		if sp := spanOf(b, got); got != nil {
			check(sp.off >= 0 && sp.cap == sp.len, "%s = %v: must alias the input with capacity equal to length", name, sp)
		}
	}
	slice("DCID", h.DCID(), v.DCID, true)
	slice("SCID", h.SCID(), v.SCID, t.IsLongHeader())
	slice("Token", h.Token(), v.Token, t == quic.TypeInitial || t == quic.TypeRetry)
	slice("SupportedVersions", h.SupportedVersions(), v.SupportedVersions, t == quic.TypeVersionNegotiation)
	slice("IntegrityTag", h.IntegrityTag(), v.IntegrityTag, t == quic.TypeRetry)
	slice("Packet", h.Packet(), hex.EncodeToString(b[:v.PacketLen]), true)
	check(spanOf(b, h.Packet()).off == 0, "Packet does not start at the input's first byte")
	check(h.Length() == v.Length, "Length = %d, want %d", h.Length(), v.Length)
	check(h.PNOffset() == v.PNOffset, "PNOffset = %d, want %d", h.PNOffset(), v.PNOffset)
	check(h.Spin() == v.Spin, "Spin = %v, want %v", h.Spin(), v.Spin)
	return strings.Join(problems, "; ")
}

// quicOracleDatagram compares what the reference's Packets yielded with a
// datagram vector's expected packets.
func quicOracleDatagram(got seqView, v quicvectors.Datagram) string {
	if got.note != "" || len(got.items) != len(v.Want) {
		return fmt.Sprintf("want %d packets", len(v.Want))
	}
	for i, w := range v.Want {
		it := got.items[i]
		typ := it.typ.String()
		if it.typ == quic.TypeNone {
			typ = ""
		}
		errName := ""
		if it.err != nil {
			errName = quicErrName(it.err)
		}
		if typ != w.Type || it.packet.len != w.PacketLen || errName != w.Err {
			return fmt.Sprintf("packet %d is %q of %d bytes with %q, want %q of %d bytes with %q", i+1, typ, it.packet.len, errName, w.Type, w.PacketLen, w.Err)
		}
	}
	return ""
}

// quicVersions are the version classes of the structured enumeration:
// Version Negotiation, the two versions with a layout, a version this
// package does not know (draft-29) and a reserved greasing version of the
// form 0x?a?a?a?a (RFC 9000 §15).
var quicVersions = []uint32{quic.VersionNegotiation, quic.Version1, quic.Version2, 0xff00001d, 0x5a6a7a8a}

// quicBytes returns n distinct-looking bytes; salt tells CIDs apart.
func quicBytes(n int, salt byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = salt + byte(i)*29
	}
	return b
}

// quicCanonical returns a well-formed packet of the type that first and
// version select, with CIDs of the given lengths (which may be out of
// range on purpose): Initial, 0-RTT and Handshake packets with a 24-byte
// Packet Number and payload (Length 24), a Retry with a 5-byte token and
// its tag, a Version Negotiation list of three versions, 6 opaque bytes for
// other versions.
func quicCanonical(first byte, version uint32, dcidLen, scidLen int) QUICPacketSpec {
	p := QUICPacketSpec{First: first, Version: version, DCID: quicBytes(dcidLen, 0x11), SCID: quicBytes(scidLen, 0x81)}
	switch p.packetType() {
	case quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake:
		p.Payload = quicBytes(24, 0x40)
	case quic.TypeRetry:
		p.Payload = append([]byte("token"), quicBytes(quic.RetryIntegrityTagLen, 0xe0)...)
	case quic.TypeVersionNegotiation:
		p.Payload = unhex("000000016b3343cf0a1a2a3a")
	default:
		p.Payload = quicBytes(6, 0x30)
	}
	return p
}

// quicVarintValues are the varints of the exhaustive method's structured
// part: every boundary of the four lengths, all-ones and alternating bits
// of each width.
var quicVarintValues = func() []uint64 {
	var vs []uint64
	for _, v := range quicInteresting {
		if v <= quic.MaxVarint {
			vs = append(vs, v)
		}
	}
	return append(vs, 1<<6-1, 1<<14-1, 1<<30-1, quic.MaxVarint-4, 0x2aaa, 0x1555, 0x2aaaaaaa, 0x15555555, 0x1555555555555555)
}()

func (s *quicSuite) exhaustive(r *run) error {
	for _, part := range []func(*run) error{s.exhaustiveVarints, s.exhaustivePacketNumbers, s.exhaustiveHeaders} {
		if err := part(r); err != nil {
			return err
		}
	}
	return nil
}

// exhaustiveVarints enumerates ParseVarint's and AppendVarint's domains.
func (s *quicSuite) exhaustiveVarints(r *run) error {
	// 1. Every input of 0, 1 and 2 bytes (every 1- and 2-byte encoding and
	//    every prefix of a longer one), alone and followed by junk up to 8
	//    bytes (the length at which the optimized code loads a whole word).
	tail := []byte{0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00}
	b := make([]byte, 0, 9)
	for n := 0; n <= 2; n++ {
		for v := range 1 << (8 * n) {
			b = b[:0]
			for i := range n {
				b = append(b, byte(v>>(8*i)))
			}
			for _, d := range [][]byte{b, append(b, tail[:8-n]...)} {
				if ce := s.checkVarint(d, true); ce != nil {
					return r.mismatch(ce)
				}
				r.count(1)
			}
		}
	}
	// 2. Every boundary value at every width it fits (non-minimal
	//    encodings included), at every truncation, followed by 0..8 bytes.
	for _, v := range quicVarintValues {
		for _, w := range []int{1, 2, 4, 8} {
			if v >= 1<<(8*w-2) {
				continue
			}
			enc := appendVarintWidth(nil, v, w, nil)
			for n := 0; n <= w; n++ {
				for extra := 0; extra <= 8; extra++ {
					d := append(bytes.Clone(enc[:n]), bytes.Repeat([]byte{0xa5}, extra)...)
					if ce := s.checkVarint(d, true); ce != nil {
						ce.Args += fmt.Sprintf(" value=%#x width=%d", v, w)
						return r.mismatch(ce)
					}
					r.count(1)
				}
			}
		}
	}
	// 3. Random 4- and 8-byte encodings, with 0..8 bytes after them.
	for range pick(r.cfg, 1<<14, 1<<18, 1<<22) {
		d := make([]byte, 16)
		for i := range d {
			d[i] = byte(r.rng.Uint32())
		}
		d[0] |= 0x80
		n := 4 << (d[0] >> 6 & 1)
		d = d[:n+r.rng.IntN(9)]
		if ce := s.checkVarint(d, true); ce != nil {
			return r.mismatch(ce)
		}
		r.count(1)
	}
	// 4. AppendVarint on the boundaries and beyond 2^62-1 (where the
	//    reference panics), onto an empty, a full and a roomy prefix; and
	//    the reference's round trip (a wrong oracle is reported as such).
	values := append([]uint64(nil), quicInteresting...)
	values = append(values, quicVarintValues...)
	for range pick(r.cfg, 1<<12, 1<<16, 1<<20) {
		w := []int{1, 2, 4, 8}[r.rng.IntN(4)]
		values = append(values, r.rng.Uint64()>>(64-(8*w-2)))
	}
	for _, v := range values {
		if v <= quic.MaxVarint {
			enc := quic.AppendVarint(nil, v)
			if got, n, err := quic.ParseVarint(enc); got != v || n != len(enc) || n != quic.VarintLen(v) || err != nil {
				return fmt.Errorf("quic/exhaustive: reference round trip of %#x: %x parses as %d, %d, %v: the oracle is wrong", v, enc, got, n, err)
			}
		}
		for _, prefix := range [][]byte{nil, {0xee, 0xee, 0xee}} {
			for _, spare := range []bool{false, true} {
				if ce := s.checkAppend(prefix, v, spare); ce != nil {
					return r.mismatch(ce)
				}
				if s.impl.AppendVarint != nil {
					r.count(1)
				}
			}
		}
	}
	return nil
}

// exhaustivePacketNumbers enumerates DecodePacketNumber's domain: for 1-
// and 2-byte packet numbers every truncated value at windows of largest
// around each boundary of RFC 9000 Appendix A.3's arithmetic, random cases
// for 3 and 4 bytes, and every way to make the reference panic.
func (s *quicSuite) exhaustivePacketNumbers(r *run) error {
	if s.impl.DecodePacketNumber == nil {
		return nil
	}
	dec := s.impl.DecodePacketNumber
	// grid compares every truncated value for each largest, with the
	// given junk above the pnLen bytes. The reference does not panic on
	// this domain, so one recover per grid suffices; a panic of the
	// implementation is then reported through checkPN.
	grid := func(largests []uint64, pnLen int, high uint64) error {
		var l, t uint64
		var ce *Counterexample
		win := uint64(1) << (8 * pnLen)
		p := panicValue(func() {
			for _, l = range largests {
				for t = 0; t < win; t++ {
					if dec(l, t|high, pnLen) != quic.DecodePacketNumber(l, t|high, pnLen) {
						ce = s.checkPN(l, t|high, pnLen)
						return
					}
				}
			}
		})
		if p != nil {
			ce = s.checkPN(l, t|high, pnLen)
		}
		if ce != nil {
			return r.mismatch(ce)
		}
		r.count(len(largests) * int(win))
		return nil
	}
	for _, pw := range [][2]int{{1, 256}, {2, pick(r.cfg, 4, 64, 512)}} {
		pnLen, w := pw[0], pw[1]
		win := uint64(1) << (8 * pnLen)
		hwin := win / 2
		largests := []uint64{math.MaxUint64} // no packet yet
		for _, c := range []uint64{0, hwin, win, win + hwin, 1<<62 - win - hwin, 1<<62 - win, 1 << 62} {
			for d := -w; d < w; d++ {
				if l := c + uint64(d); l <= quic.MaxVarint && (d >= 0 || uint64(-d) <= c) {
					largests = append(largests, l)
				}
			}
		}
		if err := grid(largests, pnLen, 0); err != nil {
			return err
		}
		// Only the low 8·pnLen bits of truncated count.
		if err := grid(largests[:1+2*w], pnLen, 0xfedc_ba98_7654_3210&^(win-1)); err != nil {
			return err
		}
	}
	// 3- and 4-byte packet numbers: random largest, near a boundary or
	// anywhere, and random truncated values.
	for range pick(r.cfg, 1<<16, 1<<20, 1<<23) {
		pnLen := 3 + r.rng.IntN(2)
		win := uint64(1) << (8 * pnLen)
		var l uint64
		switch r.rng.IntN(4) {
		case 0:
			l = r.rng.Uint64N(2 * win)
		case 1:
			l = 1<<62 - 1 - r.rng.Uint64N(2*win)
		case 2:
			l = math.MaxUint64
		default:
			l = r.rng.Uint64N(1 << 62)
		}
		t := r.rng.Uint64()
		if ce := s.checkPN(l, t, pnLen); ce != nil {
			return r.mismatch(ce)
		}
		r.count(1)
	}
	// The panics: pnLen outside 1..4, largest in [2^62, 2^64-2].
	for _, pnLen := range []int{math.MinInt, -1, 0, 1, 2, 3, 4, 5, 8, 9, math.MaxInt} {
		for _, l := range []uint64{0, 1<<62 - 1, 1 << 62, 1<<62 + 1, 1 << 63, math.MaxUint64 - 1, math.MaxUint64} {
			if ce := s.checkPN(l, 0xff, pnLen); ce != nil {
				return r.mismatch(ce)
			}
			r.count(1)
		}
	}
	return nil
}

// exhaustiveHeaders enumerates datagrams by the header grammar, each at
// every truncation point and with trailing junk; docs/equivalence.md
// argues why these classes reach every decision of the optimized parser.
func (s *quicSuite) exhaustiveHeaders(r *run) error {
	sdls := []int{0, 8, 20}

	// 1. Short headers: every first byte with Header Form 0, each
	//    shortDCIDLen in {0, 8, 20} with 24 bytes after the DCID (at every
	//    truncation: every length around the 20-byte minimum), and the
	//    invalid shortDCIDLen -1 and 21 once.
	for first := range 0x80 {
		for _, sdl := range sdls {
			p := QUICPacketSpec{First: byte(first), DCID: quicBytes(sdl, 0x11), Payload: quicBytes(24, 0x40)}
			if err := s.sweep(r, p.Append(nil), sdl, fmt.Sprintf("short first=%#02x", first)); err != nil {
				return err
			}
		}
		if err := s.invalidSDL(r, QUICPacketSpec{First: byte(first), DCID: quicBytes(8, 0x11), Payload: quicBytes(24, 0x40)}.Append(nil)); err != nil {
			return err
		}
	}

	// 2. Long headers: every first byte with Header Form 1 × every version
	//    class, with 8-byte CIDs and a well-formed rest for the type.
	for first := 0x80; first <= 0xff; first++ {
		for i, version := range quicVersions {
			d := quicCanonical(byte(first), version, 8, 8).Append(nil)
			if err := s.sweep(r, d, sdls[(first+i)%3], fmt.Sprintf("long first=%#02x version=%#08x", first, version)); err != nil {
				return err
			}
			if err := s.invalidSDL(r, d); err != nil {
				return err
			}
		}
	}

	// 3. Connection ID lengths: every class of DCID Length × every class
	//    of SCID Length × version, on first bytes covering the Fixed Bit
	//    and every Long Packet Type (low nibble varied).
	cids := pick(r.cfg, []int{0, 1, 8, 19, 20, 21, 255}, quicRange(0, 21, 255), quicRange(0, 21, 254, 255))
	var firsts []byte
	for top := byte(0x8); top <= 0xf; top++ {
		for k := range pick(r.cfg, 1, 2, 16) {
			firsts = append(firsts, top<<4|byte(k*7+int(top))&0x0f)
		}
	}
	for _, version := range quicVersions {
		for _, first := range firsts {
			for _, dl := range cids {
				for _, sl := range cids {
					d := quicCanonical(first, version, dl, sl).Append(nil)
					if err := s.sweep(r, d, 8, fmt.Sprintf("cids first=%#02x version=%#08x dcid=%d scid=%d", first, version, dl, sl)); err != nil {
						return err
					}
				}
			}
		}
	}

	// 4. Token Length and Length fields: for versions 1 and 2, Initial,
	//    0-RTT and Handshake packets with each class of value (0, the
	//    sample minimum 20 and its neighbours, remaining-1, remaining,
	//    remaining+1, 2^62-1) at each width it fits, non-minimal ones
	//    included.
	cidPairs := pick(r.cfg, [][2]int{{8, 8}}, [][2]int{{0, 0}, {8, 8}, {20, 20}, {0, 20}}, [][2]int{{0, 0}, {1, 0}, {8, 8}, {20, 20}, {0, 20}, {20, 1}})
	for _, version := range []uint32{quic.Version1, quic.Version2} {
		for ti, typ := range []quic.PacketType{quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake} {
			for _, cp := range cidPairs {
				first := quicFirstByte(version, typ, byte(ti*5+cp[0]))
				if err := s.lengthClasses(r, QUICPacketSpec{First: first, Version: version,
					DCID: quicBytes(cp[0], 0x11), SCID: quicBytes(cp[1], 0x81), Payload: quicBytes(24, 0x40)}); err != nil {
					return err
				}
			}
		}
	}

	// 5. Coalescing: every ordered pair (at Standard and Deep, triple) of
	//    a set of packets, as one datagram.
	set := quicCoalesceSet()
	for _, a := range set {
		for _, b := range set {
			d := append(append([]byte(nil), a.data...), b.data...)
			if err := s.sweep(r, d, 8, "coalesced "+a.name+"+"+b.name); err != nil {
				return err
			}
			if r.cfg.level == Quick {
				continue
			}
			for _, c := range set {
				d := append(bytes.Clone(d), c.data...)
				if err := s.sweep(r, d, 8, "coalesced "+a.name+"+"+b.name+"+"+c.name); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// invalidSDL checks d with the invalid shortDCIDLen values -1 and 21.
func (s *quicSuite) invalidSDL(r *run, d []byte) error {
	for _, sdl := range []int{-1, 21} {
		ce, k := s.checkInput(d, sdl)
		if ce != nil {
			return r.mismatch(ce)
		}
		r.count(k)
	}
	return nil
}

// quicRange returns lo..hi and then extra.
func quicRange(lo, hi int, extra ...int) []int {
	var out []int
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return append(out, extra...)
}

// lengthClasses sweeps p with its Token Length (Initial) and Length
// fields set to each class of value at each width.
func (s *quicSuite) lengthClasses(r *run, p QUICPacketSpec) error {
	widths := []int{1, 2, 4, 8}
	fits := func(v uint64, w int) bool { return v < 1<<(8*w-2) }
	payload := int64(len(p.Payload))
	// Length: 0, 1, 19, 20, 21, payload-1, payload, payload+1, 2^62-1.
	lengthDeltas := []int64{-payload, 1 - payload, 19 - payload, 20 - payload, 21 - payload, -1, 0, 1, math.MaxInt64}
	type tokenClass struct {
		token []byte
		delta int64 // relative to len(token); math.MinInt64: "remaining" classes, set below
		rel   int64
	}
	tokens := []tokenClass{{token: nil}, {token: []byte{0x7a}}, {token: quicBytes(5, 0x70)}}
	if p.packetType() == quic.TypeInitial {
		for _, rel := range []int64{-1, 0, 1} {
			tokens = append(tokens, tokenClass{token: quicBytes(5, 0x70), delta: math.MinInt64, rel: rel})
		}
		tokens = append(tokens, tokenClass{token: quicBytes(5, 0x70), delta: -5}, tokenClass{token: quicBytes(5, 0x70), delta: math.MaxInt64})
	} else {
		tokens = tokens[:1]
	}
	for _, tc := range tokens {
		for _, ld := range lengthDeltas {
			for _, lw := range widths {
				q := p
				q.Token, q.LengthDelta, q.LengthWidth = tc.token, ld, lw
				if !fits(addClamped(len(q.Payload), ld), lw) {
					continue
				}
				for _, tw := range widths {
					q.TokenLenDelta, q.TokenLenWidth = tc.delta, tw
					if tc.delta == math.MinInt64 {
						// remaining+rel: the bytes after the Token Length
						// field, which do not depend on its own width.
						q.TokenLenDelta = 0
						d, lay := q.appendWith(nil, quic.AppendVarint)
						remaining := int64(len(d) - lay.token)
						q.TokenLenDelta = remaining + tc.rel - int64(len(tc.token))
					}
					if p.packetType() == quic.TypeInitial && !fits(addClamped(len(q.Token), q.TokenLenDelta), tw) {
						continue
					}
					d := q.Append(nil)
					from := fmt.Sprintf("fields first=%#02x version=%#08x token=%d tokenLenDelta=%d/%dB lengthDelta=%d/%dB",
						q.First, q.Version, len(q.Token), q.TokenLenDelta, tw, ld, lw)
					if err := s.sweep(r, d, 8, from); err != nil {
						return err
					}
					if p.packetType() != quic.TypeInitial {
						break // no Token Length
					}
				}
			}
		}
	}
	return nil
}

type quicNamed struct {
	name string
	data []byte
	sdl  int
}

// quicCoalesceSet is a set of packets, one of each kind that ends a
// packet differently, sharing one DCID except where noted.
func quicCoalesceSet() []quicNamed {
	dcid := quicBytes(8, 0x11)
	long := func(v uint32, t quic.PacketType, payload int, dcid []byte) []byte {
		return QUICPacketSpec{First: quicFirstByte(v, t, 0x3), Version: v, DCID: dcid, SCID: quicBytes(4, 0x81), Payload: quicBytes(payload, 0x40)}.Append(nil)
	}
	return []quicNamed{
		{name: "initial", data: long(quic.Version1, quic.TypeInitial, 24, dcid)},
		{name: "0rtt-v2", data: long(quic.Version2, quic.Type0RTT, 20, dcid)},
		{name: "handshake", data: long(quic.Version1, quic.TypeHandshake, 21, dcid)},
		{name: "handshake-short", data: long(quic.Version1, quic.TypeHandshake, 19, dcid)},
		{name: "handshake-other-dcid", data: long(quic.Version1, quic.TypeHandshake, 24, quicBytes(8, 0x12))},
		{name: "initial-empty-dcid", data: long(quic.Version2, quic.TypeInitial, 20, nil)},
		{name: "1rtt", data: QUICPacketSpec{First: 0x41, DCID: dcid, Payload: quicBytes(20, 0x40)}.Append(nil)},
		{name: "retry", data: quicCanonical(0xf0, quic.Version1, 8, 4).Append(nil)},
		{name: "vn", data: quicCanonical(0x80, quic.VersionNegotiation, 8, 4).Append(nil)},
		{name: "unknown-version", data: quicCanonical(0xc0, 0xff00001d, 8, 4).Append(nil)},
		{name: "zero-padding", data: make([]byte, 3)},
	}
}

// guard parses every vector and a set of structured packets, at every
// truncation, placed flush against an unmapped page after them and before
// them: a parser that reads one byte outside its input faults.
func (s *quicSuite) guard(r *run) error {
	var inputs []quicNamed
	for _, v := range quicvectors.Packets {
		inputs = append(inputs, quicNamed{"vector " + v.Name, v.Bytes(), v.ShortDCIDLen})
	}
	for _, v := range quicvectors.BadPackets {
		inputs = append(inputs, quicNamed{"bad packet " + v.Name, v.Bytes(), v.ShortDCIDLen})
	}
	for _, v := range quicvectors.Datagrams {
		inputs = append(inputs, quicNamed{"datagram " + v.Name, v.Bytes(), v.ShortDCIDLen})
	}
	for _, c := range quicCoalesceSet() {
		inputs = append(inputs, quicNamed{c.name, c.data, 8})
	}
	for first := 0; first < 0x100; first += 0x10 {
		for _, version := range quicVersions {
			for _, cid := range []int{0, 20, 21} {
				inputs = append(inputs, quicNamed{fmt.Sprintf("first=%#02x version=%#08x cids=%d", first|5, version, cid),
					quicCanonical(byte(first|5), version, cid, cid).Append(nil), cid % 21})
			}
		}
	}
	maxLen := 0
	for _, in := range inputs {
		maxLen = max(maxLen, len(in.data))
	}
	g, err := newGuarded(maxLen)
	if err != nil {
		return fmt.Errorf("quic/guard: %w", err)
	}
	defer g.free()
	return withFaultPanics(func() error {
		for _, in := range inputs {
			for n := 0; n <= len(in.data); n++ {
				d := in.data[:n:n]
				for side, b := range [][]byte{g.tail(n), g.head(n)} {
					copy(b, d)
					ce := s.checkHeaderAt(d, b, in.sdl)
					if ce == nil {
						ce = s.checkPacketsAt(d, b, in.sdl)
					}
					if ce == nil {
						ce = s.checkVarintAt(d, b)
					}
					if ce != nil {
						ce.Args += fmt.Sprintf(" %s a guard page from=%s trunc=%d", [...]string{"ending at", "starting at"}[side], in.name, n)
						return r.mismatch(ce)
					}
					r.count(2)
					if s.impl.Packets != nil {
						r.count(1)
					}
				}
			}
		}
		return nil
	})
}

// properties runs gopter laws of the implementation alone (header round
// trips through a builder, Packets against ParseHeader, varint round trips)
// and rapid differential checks against the reference on grammar-built,
// then mutated, datagrams, with shrinking.
func (s *quicSuite) properties(r *run) error {
	checks := pick(r.cfg, 300, 3000, 30000)
	appendVarint := s.impl.AppendVarint
	if appendVarint == nil {
		appendVarint = quic.AppendVarint
	}

	var detail string // the last failing law's description
	laws := []struct {
		name string
		p    gopter.Prop
	}{
		{"a header built from its fields parses back to them", prop.ForAll(
			func(kind, low uint8, v2, spin bool, dcid, scid, token, payload []byte, pnLen, tw, lw int) bool {
				d := s.roundTrip(kind, low, v2, spin, dcid, scid, token, payload, pnLen, tw, lw, appendVarint)
				if d != "" {
					detail = d
				}
				return d == ""
			},
			gen.UInt8Range(0, 4), gen.UInt8(), gen.Bool(), gen.Bool(),
			gen.SliceOf(gen.UInt8()), gen.SliceOf(gen.UInt8()), gen.SliceOf(gen.UInt8()), gen.SliceOf(gen.UInt8()),
			gen.IntRange(1, 4), gen.OneConstOf(0, 1, 2, 4, 8), gen.OneConstOf(0, 1, 2, 4, 8))},
		{"Packets yields ParseHeader of each coalesced packet in turn (RFC 9000 §12.2)", prop.ForAll(
			func(kinds []uint8, lengths []uint8, other []bool, tail []byte, sdl int) bool {
				d := s.coalesceLaw(kinds, lengths, other, tail, sdl, appendVarint)
				if d != "" {
					detail = d
				}
				return d == ""
			},
			gen.SliceOfN(4, gen.UInt8()), gen.SliceOfN(4, gen.UInt8()), gen.SliceOfN(4, gen.Bool()),
			gen.SliceOf(gen.UInt8()), gen.OneConstOf(0, 4, 8, 20))},
		{"ParseVarint(AppendVarint(b, v)) gives v and the shortest length; every width parses; > 2^62-1 panics", prop.ForAll(
			func(x uint64, w int, prefix []byte) bool {
				d := s.varintLaw(x, w, prefix, appendVarint)
				if d != "" {
					detail = d
				}
				return d == ""
			},
			gen.UInt64(), gen.OneConstOf(1, 2, 4, 8), gen.SliceOf(gen.UInt8()))},
	}
	for _, law := range laws {
		detail = ""
		if msg := gopterCheck(r, checks, law.p); msg != "" {
			return fmt.Errorf("quic/properties: law %q does not hold (seed %d): %s; %s: %w", law.name, r.cfg.seed, msg, detail, ErrMismatch)
		}
	}

	// rapid: differential, on datagrams built from the header grammar,
	// then mutated, truncated and coalesced.
	var last *Counterexample
	if msg := rapidCheck(r, checks, func(t *rapid.T) {
		d, sdl := quicDatagramGen(t)
		r.count(1)
		ce := s.checkHeader(d, sdl, false)
		if ce == nil {
			ce = s.checkPackets(d, sdl, false)
		}
		if ce == nil {
			ce = s.checkVarint(d, false)
		}
		if ce != nil {
			last = ce
			t.Fatalf("%v", ce)
		}
	}); msg != "" {
		return r.propertyFailure("rapid ParseHeader/Packets", last, msg)
	}

	// rapid: DecodePacketNumber, largest near the boundaries.
	if s.impl.DecodePacketNumber != nil {
		last = nil
		if msg := rapidCheck(r, checks, func(t *rapid.T) {
			pnLen := rapid.OneOf(rapid.IntRange(1, 4), rapid.SampledFrom([]int{0, 5, -1})).Draw(t, "pnLen")
			largest := rapid.OneOf(rapid.Uint64Range(0, 1<<17), rapid.Uint64Range(1<<62-1<<17, 1<<62+2),
				rapid.Uint64(), rapid.Just(uint64(math.MaxUint64))).Draw(t, "largest")
			truncated := rapid.Uint64().Draw(t, "truncated")
			r.count(1)
			if ce := s.checkPN(largest, truncated, pnLen); ce != nil {
				last = ce
				t.Fatalf("%v", ce)
			}
		}); msg != "" {
			return r.propertyFailure("rapid DecodePacketNumber", last, msg)
		}
	}
	return nil
}

// roundTrip builds a packet from fields, parses it with the implementation
// and returns "" if every method reports the field it was built from.
func (s *quicSuite) roundTrip(kind, low uint8, v2, spin bool, dcid, scid, token, payload []byte, pnLen, tw, lw int, appendVarint func([]byte, uint64) []byte) string {
	version := quic.Version1
	if v2 {
		version = quic.Version2
	}
	dcid, scid = dcid[:min(len(dcid), quic.MaxCIDLen)], scid[:min(len(scid), quic.MaxCIDLen)]
	typ := [...]quic.PacketType{quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake, quic.TypeRetry, quic.Type1RTT}[kind%5]
	p := QUICPacketSpec{Version: version, DCID: dcid, SCID: scid, TokenLenWidth: tw, LengthWidth: lw}
	// The Packet Number (pnLen bytes), then the payload.
	body := append(quicBytes(pnLen, 0x01), payload...)
	if typ == quic.Type1RTT {
		p.First = 0x40 | low&0x1f
		if spin {
			p.First |= 0x20
		}
	} else {
		p.First = quicFirstByte(version, typ, low)
	}
	switch typ {
	case quic.TypeRetry:
		if len(token) == 0 {
			token = []byte{0}
		}
		p.Payload = append(bytes.Clone(token), quicBytes(quic.RetryIntegrityTagLen, 0xe0)...)
	case quic.TypeInitial:
		p.Token = token
		fallthrough
	default:
		p.Payload = body
	}
	d, lay := p.appendWith(nil, appendVarint)
	sdl := 0
	if typ == quic.Type1RTT {
		sdl = len(dcid)
	}
	full := len(d)
	if lay.pnOffset > 0 && typ != quic.Type1RTT {
		d = append(d, 0x00, 0x40, 0xff) // the next packet: not part of this one
	}
	h, err := s.impl.ParseHeader(d, sdl)
	got := viewOf(d, h, err)

	sp := func(off, n int) span { return span{off: off, len: n, cap: n} }
	none := span{isNil: true}
	want := hdrView{typ: typ, version: version, dcid: sp(6, len(dcid)), scid: sp(7+len(dcid), len(scid)),
		token: none, versions: none, tag: none, packet: sp(0, full)}
	if len(dcid) == 0 {
		want.dcid.off = 0
	}
	if len(scid) == 0 {
		want.scid.off = 0
	}
	switch typ {
	case quic.Type1RTT:
		want.version, want.scid, want.spin = 0, none, spin
		want.dcid.off = min(1, len(dcid))
		want.pnOffset = 1 + len(dcid)
		if len(p.Payload) < 4+quic.SampleLen {
			want.err = quic.ErrPacketTooShort
		}
	case quic.TypeRetry:
		want.token = sp(7+len(dcid)+len(scid), len(token))
		want.tag = sp(full-quic.RetryIntegrityTagLen, quic.RetryIntegrityTagLen)
	default:
		if typ == quic.TypeInitial {
			want.token = sp(lay.token, len(token))
			if len(token) == 0 {
				want.token.off = 0
			}
		}
		want.length, want.pnOffset = uint64(len(body)), lay.pnOffset
		if len(body) < 4+quic.SampleLen {
			want.err = quic.ErrPacketTooShort
		}
	}
	if got != want {
		return fmt.Sprintf("built %x (shortDCIDLen=%d): parsed as %v, want %v", d, sdl, got, want)
	}
	return ""
}

// coalesceLaw builds a datagram of up to four long-header packets (and
// a tail), walks it with ParseHeader as RFC 9000 §12.2 and docs/quic.md
// describe, and returns "" if Packets yields exactly that.
func (s *quicSuite) coalesceLaw(kinds, lengths []uint8, other []bool, tail []byte, sdl int, appendVarint func([]byte, uint64) []byte) string {
	if s.impl.Packets == nil {
		return ""
	}
	var d []byte
	dcid := quicBytes(8, 0x11)
	for i, k := range kinds {
		version := []uint32{quic.Version1, quic.Version2}[k>>7]
		typ := []quic.PacketType{quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake}[k%3]
		c := dcid
		if other[i] {
			c = quicBytes(8, 0x12)
		}
		p := QUICPacketSpec{First: quicFirstByte(version, typ, k), Version: version, DCID: c, SCID: quicBytes(int(k%5), 0x81),
			Payload: quicBytes(int(lengths[i]%40), 0x40), LengthWidth: int(k>>3) % 9}
		d, _ = p.appendWith(d, appendVarint)
	}
	d = append(d, tail...)

	var want seqView
	rest := d
	var firstDCID []byte
	for first := true; first || len(rest) > 0; first = false {
		h, err := s.impl.ParseHeader(rest, sdl)
		if err != nil && err != quic.ErrPacketTooShort {
			want.items = append(want.items, viewOf(d, quic.Header{}, err))
			break
		}
		if first {
			firstDCID = h.DCID()
		} else if !bytes.Equal(h.DCID(), firstDCID) {
			err = quic.ErrDCIDMismatch
		}
		want.items = append(want.items, viewOf(d, h, err))
		if len(h.Packet()) == 0 {
			return fmt.Sprintf("datagram %x: ParseHeader returned an empty packet at offset %d", d, len(d)-len(rest))
		}
		rest = rest[len(h.Packet()):]
	}
	got := runPackets(s.impl.Packets, d, sdl, 0)
	if !got.equal(want) {
		return fmt.Sprintf("datagram %x (shortDCIDLen=%d): Packets yielded %v, walking with ParseHeader gives %v", d, sdl, got, want)
	}
	return ""
}

// varintLaw checks the varint laws for x cut to a w-byte range.
func (s *quicSuite) varintLaw(x uint64, w int, prefix []byte, appendVarint func([]byte, uint64) []byte) string {
	v := x >> (64 - (8*w - 2))
	enc := appendVarint(bytes.Clone(prefix), v)
	shortest := 8
	switch {
	case v < 1<<6:
		shortest = 1
	case v < 1<<14:
		shortest = 2
	case v < 1<<30:
		shortest = 4
	}
	if !bytes.Equal(enc[:min(len(prefix), len(enc))], prefix) || len(enc) != len(prefix)+shortest {
		return fmt.Sprintf("AppendVarint(%x, %#x) = %x: want the prefix and %d bytes", prefix, v, enc, shortest)
	}
	if got, n, err := s.impl.ParseVarint(enc[len(prefix):]); got != v || n != shortest || err != nil {
		return fmt.Sprintf("ParseVarint(%x) = %d, %d, %v, want %d, %d, nil", enc[len(prefix):], got, n, err, v, shortest)
	}
	// Any width the value fits, with bytes after it.
	long := append(appendVarintWidth(nil, v, w, nil), prefix...)
	if got, n, err := s.impl.ParseVarint(long); got != v || n != w || err != nil {
		return fmt.Sprintf("ParseVarint(%x) = %d, %d, %v, want %d, %d, nil", long, got, n, err, v, w)
	}
	big := x | 1<<62
	if p := panicValue(func() { appendVarint(nil, big) }); p == nil {
		return fmt.Sprintf("AppendVarint(nil, %#x) did not panic", big)
	}
	return ""
}

// quicPick draws an index into weights, each index as likely as its
// weight (rapid shrinks towards index 0, the common case).
func quicPick(t *rapid.T, name string, weights ...int) int {
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

// quicDatagramGen draws a datagram from the header grammar: one to three
// packets (first byte, version, type, CID lengths, and Token Length and
// Length values from their classes, relative to the bytes that follow
// them, at any width), then byte flips and a truncation; and a
// shortDCIDLen. The weights favour well-formed Initial packets, whose
// header has the most fields, and values at the edges of each check.
func quicDatagramGen(t *rapid.T) ([]byte, int) {
	n := 1 + quicPick(t, "packets", 6, 3, 1)
	var d []byte
	var firstDCID []byte
	cidLen := func(name string) int {
		if quicPick(t, name+" class", 3, 1) == 0 {
			return []int{8, 0, 20, 1, 19, 21, 255}[quicPick(t, name, 4, 2, 2, 1, 1, 1, 1)]
		}
		return rapid.IntRange(0, 20).Draw(t, name)
	}
	width := func(name string) int { return []int{0, 1, 2, 4, 8}[quicPick(t, name, 4, 1, 1, 1, 1)] }
	// The classes of a length field's value, relative to the bytes that
	// follow it (rest): honest, rest+1, rest, rest-1, 0, the sample
	// minimum 20 and its neighbours, 2^62-1, or anything near.
	delta := func(name string, honest, rest int) int64 {
		switch quicPick(t, name, 6, 3, 2, 2, 1, 2, 1, 1) {
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
	for i := range n {
		var p QUICPacketSpec
		switch quicPick(t, "version class", 6, 1, 1, 1) {
		case 0:
			p.Version = []uint32{quic.Version1, quic.Version2}[rapid.IntRange(0, 1).Draw(t, "version")]
		case 1:
			p.Version = quic.VersionNegotiation
		case 2:
			p.Version = quicVersions[3+rapid.IntRange(0, 1).Draw(t, "version")]
		default:
			p.Version = rapid.Uint32().Draw(t, "version")
		}
		low := rapid.Byte().Draw(t, "low")
		switch quicPick(t, "form", 7, 2, 1) {
		case 0:
			p.First = 0x80 | low
			if _, known := quicTypeBits[p.Version]; known {
				typ := []quic.PacketType{quic.TypeInitial, quic.TypeHandshake, quic.Type0RTT, quic.TypeRetry}[quicPick(t, "type", 3, 1, 1, 1)]
				p.First = quicFirstByte(p.Version, typ, low)
			}
		case 1:
			p.First = 0x40 | low&0x3f
		default:
			p.First = low
		}
		if i > 0 && quicPick(t, "same dcid", 3, 1) == 0 {
			p.DCID = firstDCID
		} else {
			p.DCID = quicBytes(cidLen("dcidLen"), rapid.Byte().Draw(t, "dcid"))
		}
		if i == 0 {
			firstDCID = p.DCID
		}
		p.SCID = quicBytes(cidLen("scidLen"), 0x81)
		if quicPick(t, "payload kind", 1, 1) == 0 {
			p.Payload = quicBytes(rapid.IntRange(0, 48).Draw(t, "payload length"), 0x40)
		} else {
			p.Payload = rapid.SliceOfN(rapid.Byte(), 0, 48).Draw(t, "payload")
		}
		p.LengthWidth = width("lengthWidth")
		p.LengthDelta = delta("length", len(p.Payload), len(p.Payload))
		if p.packetType() == quic.TypeInitial {
			p.Token = rapid.SliceOfN(rapid.Byte(), 0, 8).Draw(t, "token")
			p.TokenLenWidth = width("tokenLenWidth")
			// The bytes after the Token Length field do not depend on
			// the field's own value.
			built, lay := p.appendWith(nil, quic.AppendVarint)
			p.TokenLenDelta = delta("tokenLen", len(p.Token), len(built)-lay.token)
		}
		d = p.Append(d)
	}
	for range []int{0, 1, 2, 3}[quicPick(t, "flips", 6, 2, 1, 1)] {
		if len(d) == 0 {
			break
		}
		i := rapid.IntRange(0, len(d)-1).Draw(t, "flip at")
		d[i] ^= rapid.Byte().Draw(t, "flip with")
	}
	if quicPick(t, "truncate", 2, 1) == 1 {
		d = d[:rapid.IntRange(0, len(d)).Draw(t, "truncate to")]
	}
	sdl := len(firstDCID)
	if sdl > quic.MaxCIDLen || quicPick(t, "other shortDCIDLen", 3, 1) == 1 {
		sdl = []int{8, 0, 20, 1, 19, -1, 21}[quicPick(t, "shortDCIDLen", 3, 3, 3, 1, 1, 1, 1)]
	}
	return d, sdl
}

// corpus replays the shared corpus through CheckQUICInput's checks.
func (s *quicSuite) corpus(r *run) error {
	return r.replayCorpus(func(v []any) (*Counterexample, int) {
		return s.checkInput(v[0].([]byte), v[1].(int))
	})
}
