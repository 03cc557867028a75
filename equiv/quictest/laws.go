package quictest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"iter"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// The properties of the functions beyond ParseHeader, Packets and the
// basic varints: laws of the implementation alone, and a rapid
// differential property.

// parserWith is the Impl's ParseHeaderWith bound to opts, its errors
// mapped, or the reference's.
func (c *checker) parserWith(opts quic.Options) func([]byte, int) (quic.Header, error) {
	with := c.impl.ParseHeaderWith
	if with == nil {
		return func(b []byte, sdl int) (quic.Header, error) { return quic.ParseHeaderWith(b, sdl, opts) }
	}
	return func(b []byte, sdl int) (quic.Header, error) {
		c.h.Note(cParseHeaderWith)
		h, err := with(b, sdl, opts)
		return h, c.cfg.MapError(err)
	}
}

// withDetail adds to a law's error what went wrong in its last failing
// case (the shrunk one): in the law's Counterexample, after its verdict,
// so that the gate's reports carry it.
func withDetail(err error, detail string) error {
	ces := equiv.Counterexamples(err)
	switch {
	case detail == "":
		return err
	case len(ces) == 1:
		ces[0].Got += ": " + detail
		return err
	}
	return fmt.Errorf("%w; %s", err, detail)
}

func (c *checker) greaseLaw(l *lawCases) gopter.Prop {
	return prop.ForAll(
		func(kind, low uint8, v2, spin bool, dcid, scid, token, payload []byte, pnLen, tw, lw int) bool {
			f := newFields(kind, low, v2, spin, dcid, scid, token, payload, pnLen, tw, lw)
			return l.holds(c.greased(f))
		},
		gen.UInt8Range(0, 4).WithLabel("kind"), gen.UInt8().WithLabel("low"), gen.Bool().WithLabel("v2"), gen.Bool().WithLabel("spin"),
		gen.SliceOf(gen.UInt8()).WithLabel("dcid"), gen.SliceOf(gen.UInt8()).WithLabel("scid"),
		gen.SliceOf(gen.UInt8()).WithLabel("token"), gen.SliceOf(gen.UInt8()).WithLabel("payload"),
		gen.IntRange(1, 4).WithLabel("pnLen"), gen.OneConstOf(0, 1, 2, 4, 8).WithLabel("tw"), gen.OneConstOf(0, 1, 2, 4, 8).WithLabel("lw"))
}

// greased builds the packet f describes with its Fixed Bit cleared, as
// roundTrip does, and returns "" if ParseHeaderWith with GreaseQUICBit
// parses it to its fields and without options rejects it with
// ErrFixedBitClear and the zero Header.
func (c *checker) greased(f fields) (problem string, inScope bool) {
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
	d[0] &^= 0x40
	in := Input{Func: funcParseHeaderWith, Data: d, ShortDCIDLen: sdl}
	greasedIn := in
	greasedIn.Options = quic.GreaseQUICBit
	if !c.inScope(in, greasedIn) {
		return "", false
	}
	got := parseWith(c.parserWith(quic.GreaseQUICBit), d, sdl, unmapped, nil)
	if want := f.expected(lay, len(body), full); got.panic != nil || got.view != want {
		return fmt.Sprintf("greased %x (shortDCIDLen=%d): parsed with GreaseQUICBit as %v, want %v", d, sdl, got, want), true
	}
	got = parseWith(c.parserWith(0), d, sdl, unmapped, nil)
	if want := viewOf(d, quic.Header{}, quic.ErrFixedBitClear); got.panic != nil || got.view != want {
		return fmt.Sprintf("greased %x (shortDCIDLen=%d): parsed without options as %v, want %v", d, sdl, got, want), true
	}
	return "", true
}

func (c *checker) coalesceWithLaw(l *lawCases) gopter.Prop {
	return prop.ForAll(
		func(kinds, lengths []uint8, other, cleared []bool, tail []byte, zeroTail, grease bool, sdl int) bool {
			if zeroTail {
				tail = make([]byte, len(tail))
			}
			d := coalescedDatagram(kinds, lengths, other, tail, c.appender())
			for i, at := range packetStarts(d, kinds, lengths, other, c.appender()) {
				if cleared[i] {
					d[at] &^= 0x40
				}
			}
			var opts quic.Options
			if grease {
				opts = quic.GreaseQUICBit
			}
			return l.holds(c.coalesceWith(d, sdl, opts))
		},
		gen.SliceOfN(4, gen.UInt8()).WithLabel("kinds"), gen.SliceOfN(4, gen.UInt8()).WithLabel("lengths"),
		gen.SliceOfN(4, gen.Bool()).WithLabel("other"), gen.SliceOfN(4, gen.Bool()).WithLabel("cleared"),
		gen.SliceOf(gen.UInt8()).WithLabel("tail"), gen.Bool().WithLabel("zeroTail"), gen.Bool().WithLabel("grease"),
		gen.OneConstOf(0, 4, 8, 20).WithLabel("sdl"))
}

// packetStarts returns the offsets at which coalescedDatagram put its
// packets.
func packetStarts(d []byte, kinds, lengths []uint8, other []bool, appendVarint func([]byte, uint64) []byte) []int {
	var starts []int
	for i := range kinds {
		starts = append(starts, len(coalescedDatagram(kinds[:i], lengths[:i], other[:i], nil, appendVarint)))
	}
	return starts
}

// coalesceWith walks d with ParseHeaderWith(opts) as RFC 9000 §12.2 and
// §14.1 say, and returns "" if PacketsWith yields exactly that.
func (c *checker) coalesceWith(d []byte, sdl int, opts quic.Options) (problem string, inScope bool) {
	if !c.inScope(Input{Func: funcPacketsWith, Data: d, ShortDCIDLen: sdl, Options: opts}) {
		return "", false
	}
	want, problem, inScope := c.walk(d, sdl, c.parserWith(opts), func(rest []byte) Input {
		return Input{Func: funcParseHeaderWith, Data: rest, ShortDCIDLen: sdl, Options: opts}
	})
	if problem != "" || !inScope {
		return problem, inScope
	}
	_, with := c.packetsFuncs(Input{Func: funcPacketsWith, Options: opts})
	noted := func(d []byte, sdl int) iter.Seq2[quic.Header, error] {
		c.h.Note(cPacketsWith)
		return with(d, sdl)
	}
	got, _ := runPackets(noted, d, sdl, 0, c.cfg.MapError, nil)
	if got.panic != nil || !got.sameItems(want) {
		return fmt.Sprintf("datagram %x (shortDCIDLen=%d opts=%#x): PacketsWith yielded %v, walking with ParseHeaderWith gives %v",
			d, sdl, uint32(opts), got, want), true
	}
	return "", true
}

func (c *checker) streamLaw(l *lawCases) gopter.Prop {
	return prop.ForAll(
		func(xs []uint64, ws []int) bool { return l.holds(c.streamRoundTrip(xs, ws)) },
		gen.SliceOfN(6, gen.UInt64()).WithLabel("xs"), gen.SliceOfN(6, gen.OneConstOf(1, 2, 4, 8)).WithLabel("ws"))
}

// streamRoundTrip encodes xs, each cut to its width in ws, with the
// Impl's AppendVarintWithLen (else the reference's), and returns "" if
// each takes exactly its width and the Impl's ReadVarint, from a
// *bytes.Reader, and PeekVarint, from a *bufio.Reader discarding what it
// saw, give them back in order and then io.EOF.
func (c *checker) streamRoundTrip(xs []uint64, ws []int) (problem string, inScope bool) {
	appendLen := c.impl.AppendVarintWithLen
	if appendLen == nil {
		appendLen = quic.AppendVarintWithLen
	}
	var stream []byte
	vs := make([]uint64, len(xs))
	for i, x := range xs {
		vs[i] = x >> (64 - (8*ws[i] - 2))
		if !c.inScope(Input{Func: funcAppendVarintWithLen, Data: stream, Value: vs[i], Len: ws[i]}) {
			return "", false
		}
		before := len(stream)
		stream = appendLen(stream, vs[i], ws[i])
		if len(stream) != before+ws[i] {
			return fmt.Sprintf("AppendVarintWithLen(_, %#x, %d) appended %d bytes", vs[i], ws[i], len(stream)-before), true
		}
	}
	if !c.inScope(Input{Func: funcReadVarint, Data: stream}, Input{Func: funcPeekVarint, Data: stream}) {
		return "", false
	}
	read, peek := c.streamReaders()
	br, pr := bytes.NewReader(stream), bufio.NewReaderSize(bytes.NewReader(stream), 16)
	for i := 0; i <= len(vs); i++ {
		want := varintResult{err: io.EOF}
		if i < len(vs) {
			want = varintResult{vs[i], ws[i], nil}
		}
		got, n, err := read(br)
		if r := (varintResult{got, n, err}); r != want {
			return fmt.Sprintf("stream %x: ReadVarint #%d = %v, want %v", stream, i+1, r, want), true
		}
		got, n, err = peek(pr)
		if r := (varintResult{got, n, err}); r != want {
			return fmt.Sprintf("stream %x: PeekVarint #%d = %v, want %v", stream, i+1, r, want), true
		}
		pr.Discard(n)
	}
	return "", true
}

// streamReaders are the Impl's ReadVarint and PeekVarint, errors mapped,
// or the reference's.
func (c *checker) streamReaders() (read func(io.ByteReader) (uint64, int, error), peek func(quic.Peeker) (uint64, int, error)) {
	read, peek = quic.ReadVarint, quic.PeekVarint
	if f := c.impl.ReadVarint; f != nil {
		read = func(r io.ByteReader) (uint64, int, error) {
			c.h.Note(cReadVarint)
			v, n, err := f(r)
			return v, n, c.cfg.MapError(err)
		}
	}
	if f := c.impl.PeekVarint; f != nil {
		peek = func(p quic.Peeker) (uint64, int, error) {
			c.h.Note(cPeekVarint)
			v, n, err := f(p)
			return v, n, c.cfg.MapError(err)
		}
	}
	return read, peek
}

// helperProperty compares ReadVarint or PeekVarint on a drawn stream
// (streamGen) and AppendVarintWithLen on a drawn value, length and
// buffer.
func (c *checker) helperProperty(r *equiv.Run) func(t *rapid.T) error {
	var streams []stream
	for _, s := range allStreams {
		if c.impl.has(s.fn()) {
			streams = append(streams, s)
		}
	}
	return func(t *rapid.T) error {
		n := 0
		if len(streams) > 0 {
			d := streamGen(t)
			s := streams[rapid.IntRange(0, len(streams)-1).Draw(t, "stream")]
			ce, k := c.compareStream(Input{Func: s.fn(), Data: d}, s)
			if ce != nil {
				return ce
			}
			n += k
		}
		if c.impl.AppendVarintWithLen != nil {
			v, w := withLenGen(t)
			prefix := rapid.SliceOfN(rapid.Byte(), 0, 4).Draw(t, "prefix")
			ce, k := c.appendWithLen(prefix, v, w, rapid.Bool().Draw(t, "spare"))
			if ce != nil {
				return ce
			}
			n += k
		}
		if n == 0 {
			return equiv.ErrNotCompared // excluded
		}
		return nil
	}
}

// streamGen draws a stream's bytes: mostly an encoding at some width, cut
// anywhere or followed by more bytes, else any bytes.
func streamGen(t *rapid.T) []byte {
	if drawIndex(t, "stream kind", 3, 1) == 1 {
		return rapid.SliceOfN(rapid.Byte(), 0, 10).Draw(t, "stream bytes")
	}
	w := varintWidths[rapid.IntRange(0, 3).Draw(t, "width")]
	v := rapid.Uint64Range(0, 1<<(8*w-2)-1).Draw(t, "value")
	d := appendVarintWidth(nil, v, w, nil)
	d = append(d, rapid.SliceOfN(rapid.Byte(), 0, 3).Draw(t, "after")...)
	return d[:rapid.IntRange(0, len(d)).Draw(t, "cut")]
}

// withLenGen draws AppendVarintWithLen's value and length: mostly a width
// and a value near its limit, else any length of withLenLengths and any
// value.
func withLenGen(t *rapid.T) (uint64, int) {
	if drawIndex(t, "length kind", 3, 1) == 1 {
		return rapid.Uint64().Draw(t, "any value"), withLenLengths[rapid.IntRange(0, len(withLenLengths)-1).Draw(t, "length")]
	}
	w := varintWidths[rapid.IntRange(0, 3).Draw(t, "width")]
	limit := uint64(1) << (8*w - 2)
	return limit - 2 + rapid.Uint64Range(0, 3).Draw(t, "near the limit"), w
}
