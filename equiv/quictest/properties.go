package quictest

import (
	"bytes"
	"fmt"
	"iter"
	"math"
	"slices"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// properties runs gopter laws of the implementation alone (header round
// trips through a builder, Packets against ParseHeader, varint round
// trips) and rapid differential checks against the reference on
// grammar-built, then mutated, datagrams and on packet numbers. Each runs
// only if the Impl has the functions it checks.
func (c *checker) properties(r *equiv.Run) error {
	n := equiv.Pick(r, 300, 3000, 30000)
	laws := []struct {
		name    string
		applies bool
		prop    func(*lawCases) gopter.Prop
	}{
		{"a header built from its fields parses back to them", c.impl.ParseHeader != nil, c.roundTripLaw},
		{"Packets yields ParseHeader of each coalesced packet in turn (RFC 9000 §12.2)", c.impl.Packets != nil, c.coalesceLaw},
		{"ParseVarint(AppendVarint(b, v)) gives v and the shortest length; every width parses; > 2^62-1 panics",
			c.impl.ParseVarint != nil || c.impl.AppendVarint != nil, c.varintLaw},
		{"with GreaseQUICBit a header with the Fixed Bit cleared parses to its fields; without, it is ErrFixedBitClear (RFC 9287)",
			c.impl.ParseHeaderWith != nil, c.greaseLaw},
		{"PacketsWith yields ParseHeaderWith of each coalesced packet, then the padding as ErrTrailingBytes (RFC 9000 §12.2, §14.1)",
			c.impl.PacketsWith != nil, c.coalesceWithLaw},
		{"ReadVarint and PeekVarint give back a stream of AppendVarintWithLen encodings, then io.EOF",
			c.impl.ReadVarint != nil || c.impl.PeekVarint != nil || c.impl.AppendVarintWithLen != nil, c.streamLaw},
	}
	for _, law := range laws {
		if !law.applies {
			continue
		}
		cases := &lawCases{r: r}
		if err := r.Law(law.name, n, law.prop(cases)); err != nil {
			return withDetail(err, cases.detail)
		}
	}
	if c.impl.readsDatagrams() {
		if err := r.Property("datagrams", n, c.datagramProperty(r)); err != nil {
			return err
		}
		r.Expect(sizeClass(0), sizeClass(64), sizeClass(1200), sizeClass(1<<16))
	}
	if c.impl.ReadVarint != nil || c.impl.PeekVarint != nil || c.impl.AppendVarintWithLen != nil {
		if err := r.Property("varint-helpers", n, c.helperProperty(r)); err != nil {
			return err
		}
	}
	if c.impl.DecodePacketNumber != nil {
		return r.Property("packet-numbers", n, c.pnProperty(r))
	}
	return nil
}

// lawCases collects the outcome of a law's cases.
type lawCases struct {
	r      *equiv.Run
	detail string // what went wrong in the last case that did not hold
}

// holds turns one case's outcome into gopter's: it holds if problem is "".
// A case whose input is out of scope holds too, and is taken back out of
// the count: Run.Law counts every case that holds, and an excluded input
// compares nothing.
func (l *lawCases) holds(problem string, inScope bool) bool {
	switch {
	case !inScope:
		l.r.Count(-1)
		return true
	case problem != "":
		l.detail = problem
		return false
	}
	return true
}

// inScope reports whether none of ins, inputs of the Impl's functions, is
// excluded. (Inputs of functions the Impl lacks go to the reference.)
func (c *checker) inScope(ins ...Input) bool {
	for _, in := range ins {
		if c.impl.has(in.Func) && equiv.Excluded(c.cfg, in) {
			return false
		}
	}
	return true
}

// appender is the Impl's AppendVarint, or the reference's if it has none.
func (c *checker) appender() func([]byte, uint64) []byte {
	if f := c.impl.AppendVarint; f != nil {
		return func(b []byte, v uint64) []byte {
			c.h.Note(cAppendVarint)
			return f(b, v)
		}
	}
	return quic.AppendVarint
}

// parser is the Impl's ParseHeader, its errors mapped, or the reference's.
func (c *checker) parser() func([]byte, int) (quic.Header, error) {
	if c.impl.ParseHeader == nil {
		return quic.ParseHeader
	}
	return func(b []byte, sdl int) (quic.Header, error) {
		c.h.Note(cParseHeader)
		h, err := c.impl.ParseHeader(b, sdl)
		return h, c.cfg.MapError(err)
	}
}

// varintParser is the Impl's ParseVarint, its errors mapped, or the
// reference's.
func (c *checker) varintParser() func([]byte) (uint64, int, error) {
	if c.impl.ParseVarint == nil {
		return quic.ParseVarint
	}
	return func(b []byte) (uint64, int, error) {
		c.h.Note(cParseVarint)
		v, n, err := c.impl.ParseVarint(b)
		return v, n, c.cfg.MapError(err)
	}
}

func (c *checker) roundTripLaw(l *lawCases) gopter.Prop {
	return prop.ForAll(
		func(kind, low uint8, v2, spin bool, dcid, scid, token, payload []byte, pnLen, tw, lw int) bool {
			f := newFields(kind, low, v2, spin, dcid, scid, token, payload, pnLen, tw, lw)
			return l.holds(c.roundTrip(f))
		},
		gen.UInt8Range(0, 4).WithLabel("kind"), gen.UInt8().WithLabel("low"), gen.Bool().WithLabel("v2"), gen.Bool().WithLabel("spin"),
		gen.SliceOf(gen.UInt8()).WithLabel("dcid"), gen.SliceOf(gen.UInt8()).WithLabel("scid"),
		gen.SliceOf(gen.UInt8()).WithLabel("token"), gen.SliceOf(gen.UInt8()).WithLabel("payload"),
		gen.IntRange(1, 4).WithLabel("pnLen"), gen.OneConstOf(0, 1, 2, 4, 8).WithLabel("tw"), gen.OneConstOf(0, 1, 2, 4, 8).WithLabel("lw"))
}

func (c *checker) coalesceLaw(l *lawCases) gopter.Prop {
	return prop.ForAll(
		func(kinds []uint8, lengths []uint8, other []bool, tail []byte, sdl int) bool {
			d := coalescedDatagram(kinds, lengths, other, tail, c.appender())
			return l.holds(c.coalesce(d, sdl))
		},
		gen.SliceOfN(4, gen.UInt8()).WithLabel("kinds"), gen.SliceOfN(4, gen.UInt8()).WithLabel("lengths"),
		gen.SliceOfN(4, gen.Bool()).WithLabel("other"), gen.SliceOf(gen.UInt8()).WithLabel("tail"), gen.OneConstOf(0, 4, 8, 20).WithLabel("sdl"))
}

func (c *checker) varintLaw(l *lawCases) gopter.Prop {
	return prop.ForAll(
		func(x uint64, w int, prefix []byte) bool { return l.holds(c.varintRoundTrip(x, w, prefix)) },
		gen.UInt64().WithLabel("x"), gen.OneConstOf(1, 2, 4, 8).WithLabel("w"), gen.SliceOf(gen.UInt8()).WithLabel("prefix"))
}

// coalescedDatagram builds a datagram of up to four long-header packets,
// then tail.
func coalescedDatagram(kinds, lengths []uint8, other []bool, tail []byte, appendVarint func([]byte, uint64) []byte) []byte {
	var d []byte
	dcid := bytesOf(8, 0x11)
	for i, k := range kinds {
		version := []uint32{quic.Version1, quic.Version2}[k>>7]
		typ := []quic.PacketType{quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake}[k%3]
		c := dcid
		if other[i] {
			c = bytesOf(8, 0x12)
		}
		p := PacketSpec{First: firstByte(version, typ, k), Version: version, DCID: c, SCID: bytesOf(int(k%5), 0x81),
			Payload: bytesOf(int(lengths[i]%40), 0x40), LengthWidth: int(k>>3) % 9}
		d, _ = p.appendWith(d, appendVarint)
	}
	return append(d, tail...)
}

// coalesce walks d with ParseHeader as RFC 9000 §12.2 and docs/quic.md
// describe, and returns "" if Packets yields exactly that.
func (c *checker) coalesce(d []byte, sdl int) (problem string, inScope bool) {
	in := Input{Func: funcPackets, Data: d, ShortDCIDLen: sdl}
	if !c.inScope(in) {
		return "", false
	}
	want, problem, inScope := c.walk(d, sdl, c.parser(), func(rest []byte) Input {
		return Input{Func: funcParseHeader, Data: rest, ShortDCIDLen: sdl}
	})
	if problem != "" || !inScope {
		return problem, inScope
	}
	noted := func(d []byte, sdl int) iter.Seq2[quic.Header, error] {
		c.h.Note(cPackets)
		return c.impl.Packets(d, sdl)
	}
	got, _ := runPackets(noted, d, sdl, 0, c.cfg.MapError, nil)
	if got.panic != nil || !got.sameItems(want) {
		return fmt.Sprintf("datagram %x (shortDCIDLen=%d): Packets yielded %v, walking with ParseHeader gives %v", d, sdl, got, want), true
	}
	return "", true
}

// walk parses d packet by packet with parse, each rest being the input
// inputFor says, and returns what Packets (or PacketsWith) must yield:
// after the first packet, bytes that do not parse, or are all zero, are
// trailing bytes.
func (c *checker) walk(d []byte, sdl int, parse func([]byte, int) (quic.Header, error), inputFor func([]byte) Input) (want seqView, problem string, inScope bool) {
	rest := d
	var firstDCID []byte
	for first := true; first || len(rest) > 0; first = false {
		if !c.inScope(inputFor(rest)) {
			return want, "", false
		}
		h, err := parse(rest, sdl)
		undelimited := err != nil && err != quic.ErrPacketTooShort
		if !first && (undelimited || !slices.ContainsFunc(rest, func(b byte) bool { return b != 0 })) {
			trailing := quic.NewHeader(rest[:len(rest):len(rest)], quic.TypeNone, false, 0, 0, 0)
			want.items = append(want.items, viewOf(d, trailing, quic.ErrTrailingBytes))
			break
		}
		if undelimited {
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
			return want, fmt.Sprintf("datagram %x: ParseHeader returned an empty packet at offset %d", d, len(d)-len(rest)), true
		}
		rest = rest[len(h.Packet()):]
	}
	return want, "", true
}

// varintRoundTrip checks the varint laws for x cut to a w-byte range,
// with the Impl's AppendVarint and ParseVarint (the reference's for the
// one it lacks).
func (c *checker) varintRoundTrip(x uint64, w int, prefix []byte) (problem string, inScope bool) {
	appendVarint, parse := c.appender(), c.varintParser()
	v := x >> (64 - (8*w - 2))
	big := x | 1<<62
	if !c.inScope(Input{Func: funcAppendVarint, Data: prefix, Value: v}, Input{Func: funcAppendVarint, Value: big}) {
		return "", false
	}
	enc := appendVarint(bytes.Clone(prefix), v)
	shortest := quic.VarintLen(v)
	if !bytes.Equal(enc[:min(len(prefix), len(enc))], prefix) || len(enc) != len(prefix)+shortest {
		return fmt.Sprintf("AppendVarint(%x, %#x) = %x: want the prefix and %d bytes", prefix, v, enc, shortest), true
	}
	// Any width the value fits, with bytes after it.
	long := append(appendVarintWidth(nil, v, w, nil), prefix...)
	if !c.inScope(Input{Func: funcParseVarint, Data: enc[len(prefix):]}, Input{Func: funcParseVarint, Data: long}) {
		return "", false
	}
	if got, n, err := parse(enc[len(prefix):]); got != v || n != shortest || err != nil {
		return fmt.Sprintf("ParseVarint(%x) = %d, %d, %v, want %d, %d, nil", enc[len(prefix):], got, n, err, v, shortest), true
	}
	if got, n, err := parse(long); got != v || n != w || err != nil {
		return fmt.Sprintf("ParseVarint(%x) = %d, %d, %v, want %d, %d, nil", long, got, n, err, v, w), true
	}
	if p := equiv.Catch(func() { appendVarint(nil, big) }); p == nil {
		return fmt.Sprintf("AppendVarint(nil, %#x) did not panic", big), true
	}
	return "", true
}

// datagramProperty compares the Impl's ParseHeader, Packets and
// ParseVarint with the reference on datagrams drawn from the header
// grammar, then mutated (datagramGen).
func (c *checker) datagramProperty(r *equiv.Run) func(t *rapid.T) error {
	return func(t *rapid.T) error {
		d, sdl := datagramGen(t)
		r.Reach(sizeClass(len(d)))
		ce, k := c.reads(d, sdl, laidOut)
		if ce == nil && k == 0 {
			return equiv.ErrNotCompared // every input was excluded
		}
		return asError(ce)
	}
}

// pnProperty compares DecodePacketNumber with largest near the
// boundaries, and pnLen mostly valid.
func (c *checker) pnProperty(r *equiv.Run) func(t *rapid.T) error {
	return func(t *rapid.T) error {
		pnLen := rapid.OneOf(rapid.IntRange(1, 4), rapid.SampledFrom([]int{0, 5, -1})).Draw(t, "pnLen")
		largest := rapid.OneOf(rapid.Uint64Range(0, 1<<17), rapid.Uint64Range(1<<62-1<<17, 1<<62+2),
			rapid.Uint64(), rapid.Just(uint64(math.MaxUint64))).Draw(t, "largest")
		truncated := rapid.Uint64().Draw(t, "truncated")
		ce, k := c.packetNumber(largest, truncated, pnLen)
		if ce == nil && k == 0 {
			return equiv.ErrNotCompared // excluded
		}
		return asError(ce)
	}
}

// asError returns ce as an error, nil if ce is nil.
func asError(ce *equiv.Counterexample) error {
	if ce == nil {
		return nil
	}
	return ce
}
