package quictest

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/internal/quicvectors"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// junk follows a datagram in the "trailing junk" checks: bytes that read
// as a long header of version 1 with a 21-byte DCID if a parser wrongly
// starts there, and as a non-minimal varint.
var junk = []byte{0xc0, 0x00, 0x00, 0x00, 0x01, 0x15, 0x40, 0x25, 0xff, 0x00, 0x80, 0x7f, 0x3f, 0x01, 0xaa, 0x55}

// sweep checks data at every truncation point, data[:n] for n = 0..len,
// and data followed by trailing junk, with CheckInput's checks.
func (c *checker) sweep(r *equiv.Run, data []byte, sdl int, from string) error {
	return c.sweepWith(r, data, sdl, from, fullChecks)
}

// sweepWith is sweep with the checks ch.
func (c *checker) sweepWith(r *equiv.Run, data []byte, sdl int, from string, ch checks) error {
	return c.sweepUpTo(r, data, sdl, from, ch, len(data))
}

// sweepUpTo is sweepWith at the truncation points 0..upTo only, then the
// whole of data and data followed by junk.
func (c *checker) sweepUpTo(r *equiv.Run, data []byte, sdl int, from string, ch checks, upTo int) error {
	for n := 0; n <= len(data)+1; n++ {
		if n > upTo && n < len(data) {
			n = len(data)
		}
		d, what := data[:min(n, len(data)):min(n, len(data))], fmt.Sprintf("trunc=%d/%d", n, len(data))
		if n > len(data) {
			d, what = append(bytes.Clone(data), junk...), "+junk"
		}
		ce, k := c.inputWith(d, sdl, ch)
		if ce != nil {
			return r.Fail(note(ce, "from=%s %s", from, what))
		}
		r.Count(k)
	}
	return nil
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic("quictest: bad hex: " + err.Error())
	}
	return b
}

// vectors checks the RFC vectors of equiv/internal/quicvectors: first the
// reference against their expected values (a disagreement there is the
// oracle's, and reported as such), then the implementation against the
// reference on each vector, at every truncation and with trailing junk.
func (c *checker) vectors(r *equiv.Run) error {
	// manyPackets' datagrams of 255, 256 and 257 packets, the exhaustive
	// method's too, are the boundary of a packet counter in an octet: here
	// within a second of the start (h2o/h2o#2349's batch array).
	for _, part := range []func(*equiv.Run) error{c.varintVectors, c.pnVectors, c.packetVectors, c.badPacketVectors, c.datagramVectors, c.manyPackets} {
		if err := part(r); err != nil {
			return err
		}
	}
	return nil
}

// varintVectors checks RFC 9000 Appendix A.1's varints, including the
// non-minimal 0x4025: each parsed, appended (onto a full and a roomy
// buffer), and parsed at every truncation of it followed by junk.
func (c *checker) varintVectors(r *equiv.Run) error {
	for _, v := range quicvectors.Varints {
		enc := unhex(v.Hex)
		if val, n, err := quic.ParseVarint(enc); val != v.Value || n != v.Len || err != nil {
			return r.Errorf("reference ParseVarint(%s) = %d, %d, %v, want %d, %d, nil (%s): the oracle is wrong", v.Hex, val, n, err, v.Value, v.Len, v.Source)
		}
		if quic.VarintLen(v.Value) == v.Len {
			if got := quic.AppendVarint(nil, v.Value); !bytes.Equal(got, enc) {
				return r.Errorf("reference AppendVarint(%d) = %x, want %s (%s): the oracle is wrong", v.Value, got, v.Hex, v.Source)
			}
		}
		ce, k := c.compare(Input{Func: funcParseVarint, Data: enc}, laidOut)
		if ce != nil {
			return r.Fail(note(ce, "vector=%q", v.Source))
		}
		r.Count(k)
		for _, spare := range []bool{false, true} {
			ce, k := c.appendVarint(nil, v.Value, spare)
			if ce != nil {
				return r.Fail(note(ce, "vector=%q", v.Source))
			}
			r.Count(k)
		}
		withJunk := append(bytes.Clone(enc), junk...)
		for n := 0; n <= len(withJunk); n++ {
			ce, k := c.compare(Input{Func: funcParseVarint, Data: withJunk[:n:n]}, laidOut)
			if ce != nil {
				return r.Fail(note(ce, "vector=%q trunc=%d", v.Source, n))
			}
			r.Count(k)
		}
		if err := c.varintVectorHelpers(r, v, enc, withJunk); err != nil {
			return err
		}
	}
	return c.guardedVarintVectors(r)
}

// guardedVarintVectors parses every truncation of each RFC 9000 Appendix
// A.1 varint flush against an unmapped page, after it and before it,
// where guard pages exist: a varint read of a fixed word past a short
// input faults here already, the guard method then covers every other
// reader and input.
func (c *checker) guardedVarintVectors(r *equiv.Run) error {
	if c.impl.ParseVarint == nil || equiv.GuardSkip() != "" {
		return nil
	}
	return r.Guarded(func(gs []*equiv.Guarded) error {
		for _, v := range quicvectors.Varints {
			enc := unhex(v.Hex)
			for n := 0; n <= len(enc); n++ {
				for _, side := range guardSides(gs[0]) {
					ce, k := c.compare(Input{Func: funcParseVarint, Data: enc[:n:n]}, side.site)
					if ce != nil {
						return r.Fail(note(ce, "vector=%q trunc=%d %s a guard page", v.Source, n, side.name))
					}
					r.Count(k)
				}
			}
		}
		return nil
	}, 16)
}

// varintVectorHelpers checks the stream and fixed-width functions on one
// RFC 9000 Appendix A.1 vector: the reference first (ReadVarint and
// PeekVarint decode it, AppendVarintWithLen at the vector's own width
// gives back its bytes, 0x4025 included), then the Impl, on every stream
// of allStreams holding every truncation of the vector and junk, and
// AppendVarintWithLen at every width, onto a full and a roomy buffer.
func (c *checker) varintVectorHelpers(r *equiv.Run, v quicvectors.Varint, enc, withJunk []byte) error {
	if val, n, err := quic.ReadVarint(bytes.NewReader(withJunk)); val != v.Value || n != v.Len || err != nil {
		return r.Errorf("reference ReadVarint(%s) = %d, %d, %v, want %d, %d, nil (%s): the oracle is wrong", v.Hex, val, n, err, v.Value, v.Len, v.Source)
	}
	if val, n, err := quic.PeekVarint(peekStream{&scripted{data: withJunk, end: io.EOF}}); val != v.Value || n != v.Len || err != nil {
		return r.Errorf("reference PeekVarint(%s) = %d, %d, %v, want %d, %d, nil (%s): the oracle is wrong", v.Hex, val, n, err, v.Value, v.Len, v.Source)
	}
	if got := quic.AppendVarintWithLen(nil, v.Value, v.Len); !bytes.Equal(got, enc) {
		return r.Errorf("reference AppendVarintWithLen(%d, %d) = %x, want %s (%s): the oracle is wrong", v.Value, v.Len, got, v.Hex, v.Source)
	}
	for n := 0; n <= len(withJunk); n++ {
		for _, s := range allStreams {
			ce, k := c.compareStream(Input{Func: s.fn(), Data: withJunk[:n:n]}, s)
			if ce != nil {
				return r.Fail(note(ce, "vector=%q trunc=%d", v.Source, n))
			}
			r.Count(k)
		}
	}
	for _, w := range varintWidths {
		for _, spare := range []bool{false, true} {
			ce, k := c.appendWithLen(nil, v.Value, w, spare)
			if ce != nil {
				return r.Fail(note(ce, "vector=%q", v.Source))
			}
			r.Count(k)
		}
	}
	return nil
}

// pnVectors checks RFC 9000 Appendix A.3's packet numbers, including
// largest 10, truncated 0xff, 1 byte, which a literal uint64 port decodes
// as 511: each vector with junk above the pnLen bytes (which must be
// ignored), and with every other pnLen.
func (c *checker) pnVectors(r *equiv.Run) error {
	for _, v := range quicvectors.PacketNumbers {
		if got := quic.DecodePacketNumber(v.Largest, v.Truncated, v.PNLen); got != v.Want {
			return r.Errorf("reference DecodePacketNumber(%#x, %#x, %d) = %#x, want %#x (%s): the oracle is wrong", v.Largest, v.Truncated, v.PNLen, got, v.Want, v.Source)
		}
		for pnLen := 1; pnLen <= 4; pnLen++ {
			for _, high := range []uint64{0, 0xdead_beef_cafe_f00d &^ (1<<(8*pnLen) - 1)} {
				ce, k := c.packetNumber(v.Largest, v.Truncated|high, pnLen)
				if ce != nil {
					return r.Fail(note(ce, "vector=%q", v.Source))
				}
				r.Count(k)
			}
		}
	}
	return nil
}

// packetVectors checks RFC 9001 Appendix A and RFC 9369 Appendix A
// packets (unprotected headers and protected packets), and hand-built ones
// of every type.
func (c *checker) packetVectors(r *equiv.Run) error {
	for _, v := range quicvectors.Packets {
		b := v.Bytes()
		h, err := quic.ParseHeader(b, v.ShortDCIDLen)
		if v.Grease {
			if err != quic.ErrFixedBitClear {
				return r.Errorf("reference ParseHeader on %s (%s) = %v, want ErrFixedBitClear without GreaseQUICBit: the oracle is wrong", v.Name, v.Source, err)
			}
			h, err = quic.ParseHeaderWith(b, v.ShortDCIDLen, quic.GreaseQUICBit)
		}
		if problem := oracleHeader(b, h, err, v); problem != "" {
			return r.Errorf("reference ParseHeader on %s (%s): %s: the oracle is wrong", v.Name, v.Source, problem)
		}
		if err := c.sweep(r, b, v.ShortDCIDLen, "vector "+v.Name); err != nil {
			return err
		}
		r.Reach(vectorClass(h.Type(), v.Grease))
	}
	if c.impl.readsDatagrams() {
		var want []string
		for _, t := range []quic.PacketType{quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake, quic.TypeRetry,
			quic.TypeVersionNegotiation, quic.TypeUnsupportedVersion, quic.Type1RTT} {
			want = append(want, vectorClass(t, false))
		}
		r.Expect(append(want, vectorClass(0, true))...)
	}
	return nil
}

// vectorClass names a packet vector's class for the domain: its packet
// type, or greased (RFC 9287).
func vectorClass(t quic.PacketType, grease bool) string {
	if grease {
		return "vector greased"
	}
	return "vector " + t.String()
}

// badPacketVectors checks datagrams with one problem each (or two, for
// precedence). The reference must return the vector's error with the zero
// Header, or a complete Header for ErrPacketTooShort.
func (c *checker) badPacketVectors(r *equiv.Run) error {
	for _, v := range quicvectors.BadPackets {
		b := v.Bytes()
		want, ok := errorsByName[v.Err]
		if !ok {
			return r.Errorf("%s: unknown error name %q", v.Name, v.Err)
		}
		h, err := quic.ParseHeader(b, v.ShortDCIDLen)
		zero := viewOf(b, h, nil) == zeroHdrView
		if err != want || zero == (want == quic.ErrPacketTooShort) {
			return r.Errorf("reference ParseHeader on %s (%s) = %v, want %s with %s: the oracle is wrong",
				v.Name, v.Source, viewOf(b, h, err), v.Err, map[bool]string{true: "a complete Header", false: "the zero Header"}[want == quic.ErrPacketTooShort])
		}
		if err := c.sweep(r, b, v.ShortDCIDLen, "bad packet "+v.Name); err != nil {
			return err
		}
	}
	return nil
}

// datagramVectors checks coalesced packets (RFC 9000 §12.2) and padded
// datagrams (RFC 9000 §14.1), greased ones with GreaseQUICBit.
func (c *checker) datagramVectors(r *equiv.Run) error {
	for _, v := range quicvectors.Datagrams {
		b := v.Bytes()
		var opts quic.Options
		if v.Grease {
			opts = quic.GreaseQUICBit
		}
		got, _ := runPackets(func(d []byte, sdl int) iter.Seq2[quic.Header, error] { return quic.PacketsWith(d, sdl, opts) },
			b, v.ShortDCIDLen, 0, unmapped, nil)
		if problem := oracleDatagram(got, v); problem != "" {
			return r.Errorf("reference Packets on %s (%s) = %v: %s: the oracle is wrong", v.Name, v.Source, got, problem)
		}
		// A padded datagram is cut at every point up to maxPad bytes into
		// its padding, its last item (the padding domain has every length
		// of padding after every packet vector).
		upTo := len(b)
		if v.Pad > 0 || v.Junk > 0 {
			upTo = len(b) - got.items[len(got.items)-1].packet.len + maxPad
		}
		if err := c.sweepUpTo(r, b, v.ShortDCIDLen, "datagram "+v.Name, fullChecks, upTo); err != nil {
			return err
		}
	}
	return nil
}

// oracleHeader compares what the reference parsed from a vector with the
// vector's expected fields, and with the rules every Header keeps (slices
// in the input, capacity clipped, nil where the type has no such field).
func oracleHeader(b []byte, h quic.Header, err error, v quicvectors.Packet) string {
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

// oracleDatagram compares what the reference's Packets yielded with a
// datagram vector's expected packets.
func oracleDatagram(got seqView, v quicvectors.Datagram) string {
	if got.note != "" || got.panic != nil || len(got.items) != len(v.Want) {
		return fmt.Sprintf("want %d packets", len(v.Want))
	}
	for i, w := range v.Want {
		it := got.items[i]
		typ := it.typ.String()
		if it.typ == quic.TypeNone {
			typ = ""
		}
		name := ""
		if it.err != nil {
			name = errName(it.err)
		}
		if typ != w.Type || it.packet.len != w.PacketLen || name != w.Err {
			return fmt.Sprintf("packet %d is %q of %d bytes with %q, want %q of %d bytes with %q", i+1, typ, it.packet.len, name, w.Type, w.PacketLen, w.Err)
		}
	}
	return ""
}
