package quictest

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// checker compares one Impl with the reference under one configuration.
// Every method run and every fuzz input builds its own, so that a Suite
// can be checked from several goroutines at once.
type checker struct {
	impl   Impl
	cfg    *equiv.Config
	buf    equiv.Buffer // where the implementation's copy of an input goes
	refBuf equiv.Buffer // and the reference's, laid out alike
	run    *equiv.Run   // the method's run, which records input sizes; nil for a fuzz input
	// stop is the one stop packetsAt tries while a counterexample found
	// there is minimized (-1: every stop), and failedStop where the last
	// disagreement packetsAt found was.
	stop, failedStop int
}

func newChecker(impl Impl, cfg *equiv.Config) *checker {
	return &checker{impl: impl, cfg: cfg, stop: -1}
}

// place copies data to where the implementation reads it, on read-only
// pages where the system allows (equiv.Buffer.Input), laid out as
// equiv.LayoutOf(len(data), placeAlign(len(data))) says: spare capacity
// holding canaries, or nil when empty. The reference's copy is laid out
// alike, so that the capacities of the slices a Header returns compare as
// they are.
func (c *checker) place(data []byte) (ref, impl []byte, where string) {
	a := placeAlign(len(data))
	return c.refBuf.Input(data, a), c.buf.Input(data, a), placedAs(len(data))
}

// placer copies an input to where the reference and the implementation
// read it, and says where for a counterexample ("" if the caller says
// it): checker.place, or flush against a guard page (guardSides).
type placer func(data []byte) (ref, impl []byte, where string)

// placeAlign is the alignment of an input of n bytes: a function of n
// alone, so that FuzzQUICHeader's replay of a datagram lays it out alike,
// which over eight lengths in a row takes every spare capacity of the
// layout schedule, and over 512 every alignment.
func placeAlign(n int) int { return n >> 3 & 63 }

// placedAs describes where an input of n bytes lay, for a counterexample.
func placedAs(n int) string { return equiv.LayoutOf(n, placeAlign(n)).String() }

// release gives the checker's buffers back (equiv.Buffer.Release).
func (c *checker) release() {
	c.buf.Release()
	c.refBuf.Release()
}

// skip reports whether in is not to be compared: its function is nil, or
// the configuration excludes it.
func (c *checker) skip(in Input) bool {
	return !c.impl.has(in.Func) || equiv.Excluded(c.cfg, in)
}

// agree reports whether two calls agree, given whether their results are
// the same: both panicked alike (Config.SamePanic), or neither panicked
// and same.
func (c *checker) agree(got, want *equiv.Panic, same bool) bool {
	if got != nil || want != nil {
		return c.cfg.SamePanic(equiv.PanicValue(got), equiv.PanicValue(want))
	}
	return same
}

// reader is a function that reads a datagram, with the options it is
// called with (ParseHeaderWith, PacketsWith).
type reader struct {
	fn   string
	opts quic.Options
}

// readers are the functions that read a datagram, in the order in which a
// datagram is checked: each header parser with the options of
// fuzzOptions, each varint reader.
var readers = []reader{
	{fn: funcParseHeader}, {fn: funcPackets}, {fn: funcParseVarint},
	{fn: funcParseHeaderWith}, {fn: funcParseHeaderWith, opts: quic.GreaseQUICBit},
	{fn: funcPacketsWith}, {fn: funcPacketsWith, opts: quic.GreaseQUICBit},
	{fn: funcReadVarint}, {fn: funcPeekVarint},
}

// fuzzOptions are the options CheckInput parses with: a counterexample
// with other options is not reproduced by FuzzQUICHeader.
func fuzzOptions(opts quic.Options) bool { return opts == 0 || opts == quic.GreaseQUICBit }

// readerInput is the input of rd, one of readers, on data.
func readerInput(rd reader, data []byte, sdl int) Input {
	switch rd.fn {
	case funcParseVarint, funcReadVarint, funcPeekVarint:
		return Input{Func: rd.fn, Data: data}
	}
	return Input{Func: rd.fn, Data: data, ShortDCIDLen: sdl, Options: rd.opts}
}

// checks are what input compares on a datagram: readers, then
// AppendVarint of the varint the datagram starts with and, if withLen,
// AppendVarintWithLen of it at every width it fits.
type checks struct {
	readers []reader
	withLen bool
}

// fullChecks are CheckInput's.
var fullChecks = checks{readers: readers, withLen: true}

// grammarChecks are what the exhaustive method's header grammar compares
// on each datagram of its first-byte and coalescing parts: the header
// parsers, the greased ones included, and the varint functions it always
// compared. The rest of fullChecks depends on what this grammar does not
// vary (the first 8 bytes' varint, for the stream and fixed-width
// functions) or runs, in optimized/quic, the very code ParseHeader and
// Packets run (the no-option ParseHeaderWith and PacketsWith); their own
// domains and every other method compare them (docs/equivalence.md).
var grammarChecks = checks{readers: []reader{
	{fn: funcParseHeader}, {fn: funcPackets}, {fn: funcParseVarint},
	{fn: funcParseHeaderWith, opts: quic.GreaseQUICBit}, {fn: funcPacketsWith, opts: quic.GreaseQUICBit},
}}

// fieldChecks are grammarChecks without the greased PacketsWith, for the
// grammar's parts that vary the fields of one packet (CID lengths, Token
// Length and Length): the greased walk over one packet is PacketsWith's
// greased parse, compared here, and its trailing rule, which the
// first-byte, coalescing and padding parts compare.
var fieldChecks = checks{readers: grammarChecks.readers[:4]}

// input runs CheckInput's checks on (data, sdl) and returns the first
// disagreement, minimized, and the number of comparisons made.
func (c *checker) input(data []byte, sdl int) (*equiv.Counterexample, int) {
	return c.inputWith(data, sdl, fullChecks)
}

// inputWith is input with the checks ch.
func (c *checker) inputWith(data []byte, sdl int, ch checks) (*equiv.Counterexample, int) {
	ce, n := c.readsWith(ch.readers, data, sdl, c.place)
	if ce != nil {
		return ce, n
	}
	v, _, err := quic.ParseVarint(data)
	if err != nil {
		return nil, n
	}
	ce, k := c.appendVarint(nil, v, false)
	if n += k; ce != nil || !ch.withLen {
		return ce, n
	}
	for _, w := range varintWidths {
		if !fits(v, w) {
			continue // a panic: the exhaustive domain has them, not every datagram
		}
		ce, k := c.appendWithLen(nil, v, w, false)
		if n += k; ce != nil {
			return ce, n
		}
	}
	return nil, n
}

// reads compares every function of readers on (data, sdl), placed by
// place, and returns the first disagreement, minimized, and the number of
// comparisons made.
func (c *checker) reads(data []byte, sdl int, place placer) (*equiv.Counterexample, int) {
	return c.readsWith(readers, data, sdl, place)
}

// readsWith is reads with the readers rs.
func (c *checker) readsWith(rs []reader, data []byte, sdl int, place placer) (*equiv.Counterexample, int) {
	n := 0
	for _, rd := range rs {
		ce, k := c.compare(readerInput(rd, data, sdl), place)
		n += k
		if ce != nil {
			return ce, n
		}
	}
	return nil, n
}

// structured runs CheckInput's checks on the datagram that an input of
// FuzzQUICStructured describes.
func (c *checker) structured(data []byte) (*equiv.Counterexample, int) {
	d, sdl := decodeStructured(data)
	ce, n := c.input(d, sdl)
	if ce != nil {
		note(ce, "from=%s", targetStructured)
	}
	return ce, n
}

// compare compares in.Func, one of readers, on in.Data, which place copies
// to where the implementation reads it. It returns the minimized
// counterexample, if any, and the number of comparisons made: 0 if in is
// skipped, else 1.
func (c *checker) compare(in Input, place placer) (*equiv.Counterexample, int) {
	return c.compareWith(in, func(d []byte) *equiv.Counterexample {
		ref, b, where := place(d)
		ce := c.readAt(in, ref, b)
		if ce == nil && where != "" && !c.buf.Intact() {
			// The input itself is compared by readAt; here its canaries
			// and spare capacity (written where the pages could not be
			// made read-only).
			ce = datagramCE(in.Func, d, in.ShortDCIDLen, nil, "the same results, but wrote outside the datagram", "nothing written")
		}
		if ce != nil && where != "" {
			note(ce, "%s", where)
		}
		return ce
	})
}

// compareWith compares in.Func on in.Data with at, which runs both
// implementations on the bytes it is given, and returns the minimized
// counterexample, if any, and the number of comparisons made: 0 if in is
// skipped, else 1.
func (c *checker) compareWith(in Input, at func([]byte) *equiv.Counterexample) (*equiv.Counterexample, int) {
	if c.skip(in) {
		return nil, 0
	}
	if c.run != nil {
		c.run.Size(len(in.Data))
	}
	ce := at(in.Data)
	if ce == nil {
		return nil, 1
	}
	if in.Func == funcPackets || in.Func == funcPacketsWith {
		// Shrink on the stop that failed: every stop of a long sequence
		// costs a parse per packet.
		c.stop = c.failedStop
		defer func() { c.stop = -1 }()
	}
	return c.minimize(in, ce, at), 1
}

// readAt compares in.Func on data (the reference's input) and b (the
// implementation's: a copy of data, wherever it was placed).
func (c *checker) readAt(in Input, data, b []byte) *equiv.Counterexample {
	switch in.Func {
	case funcParseHeader, funcParseHeaderWith:
		return c.headerAt(in, data, b)
	case funcPackets, funcPacketsWith:
		return c.packetsAt(in, data, b)
	case funcReadVarint, funcPeekVarint:
		return c.streamsAt(in, data, b, cheapStreams)
	}
	return c.varintAt(data, b)
}

// minimize shrinks in.Data, on which at found ce, to a smaller input that
// is still in scope and on which at still fails, and returns at's
// counterexample there.
func (c *checker) minimize(in Input, ce *equiv.Counterexample, at func([]byte) *equiv.Counterexample) *equiv.Counterexample {
	small := equiv.ShrinkBytes(in.Data, func(d []byte) bool {
		s := in
		s.Data = d
		return !equiv.OutOfScope(c.cfg, s) && at(d) != nil
	})
	if sce := at(small); sce != nil {
		return sce
	}
	return ce // the implementation is not deterministic
}

// headerAt compares ParseHeader, or ParseHeaderWith with in.Options, on
// data and b.
func (c *checker) headerAt(in Input, data, b []byte) *equiv.Counterexample {
	ref, impl := c.headerFuncs(in)
	sdl := in.ShortDCIDLen
	want := parseWith(ref, data, sdl, unmapped)
	got := parseWith(impl, b, sdl, c.cfg.MapError)
	same := c.agree(got.panic, want.panic, got.view == want.view)
	if same && bytes.Equal(b, data) {
		return nil
	}
	return withOptions(in, datagramCE(in.Func, data, sdl, got.panic, modified(got.String(), same), want.String()))
}

// packetsAt compares the Packets sequence, or PacketsWith's with
// in.Options, on data and b: the whole sequence, then the sequence
// stopped after each of its packets (of a long sequence, after each of
// its first and last stopEnds packets: every stop would make a datagram
// of n packets cost n^2 parses).
func (c *checker) packetsAt(in Input, data, b []byte) *equiv.Counterexample {
	ref, impl := c.packetsFuncs(in)
	sdl := in.ShortDCIDLen
	want := runPackets(ref, data, sdl, 0, unmapped)
	for stop := 0; stop <= len(want.items); stop++ {
		if stop > stopEnds && stop < len(want.items)-stopEnds {
			stop = len(want.items) - stopEnds
		}
		if c.stop >= 0 && stop != c.stop {
			continue
		}
		w := want
		if stop > 0 {
			w = seqView{items: want.items[:stop]}
		}
		got := runPackets(impl, b, sdl, stop, c.cfg.MapError)
		same := c.agree(got.panic, w.panic, true) && got.sameItems(w)
		if same && bytes.Equal(b, data) {
			continue
		}
		c.failedStop = stop
		ce := datagramCE(in.Func, data, sdl, got.panic, modified(got.String(), same), w.String())
		if stop > 0 {
			note(ce, "break-after=%d", stop)
		}
		return withOptions(in, ce)
	}
	return nil
}

// stopEnds is how many stops at each end of a sequence packetsAt tries.
const stopEnds = 16

func (c *checker) varintAt(data, b []byte) *equiv.Counterexample {
	want, wantP := callVarint(quic.ParseVarint, data, unmapped)
	got, gotP := callVarint(c.impl.ParseVarint, b, c.cfg.MapError)
	same := c.agree(gotP, wantP, got == want)
	if same && bytes.Equal(b, data) {
		return nil
	}
	ce := datagramCE(funcParseVarint, data, 0, gotP, modified(orPanic(got, gotP), same), orPanic(want, wantP))
	ce.Args = ""
	return ce
}

// appendVarint compares AppendVarint(prefix, v): the bytes, the prefix
// kept, or the panic (the reference panics above 2^62-1). The prefix is
// passed with room to spare when spare is set, and full to capacity
// otherwise. It returns the minimized counterexample, if any, and the
// number of comparisons made.
func (c *checker) appendVarint(prefix []byte, v uint64, spare bool) (*equiv.Counterexample, int) {
	in := Input{Func: funcAppendVarint, Data: prefix, Value: v}
	if c.skip(in) {
		return nil, 0
	}
	at := func(p []byte) *equiv.Counterexample { return c.appendAt(p, v, spare) }
	ce := at(prefix)
	if ce == nil {
		return nil, 1
	}
	return c.minimize(in, ce, at), 1
}

// appendAt compares AppendVarint(prefix, v) on a copy of prefix that is
// full to capacity or, if spare, has 16 bytes of room filled with
// spareMarker: the bytes, the prefix left as it was, and nothing written
// past the appended bytes. A result appended to nothing is the caller's:
// it is kept alive (equiv.Config.Keep), and must not change as later
// appends run.
func (c *checker) appendAt(prefix []byte, v uint64, spare bool) *equiv.Counterexample {
	want, wantP := callAppend(quic.AppendVarint, bytes.Clone(prefix), v)
	in := slices.Clip(bytes.Clone(prefix))
	if spare {
		in = append(make([]byte, 0, len(prefix)+16), prefix...)
		full := in[:cap(in)]
		for i := len(in); i < len(full); i++ {
			full[i] = spareMarker
		}
	}
	got, gotP := callAppend(c.impl.AppendVarint, in, v)
	same := bytes.Equal(got, want) && (got == nil) == (want == nil)
	if !c.agree(gotP, wantP, same) {
		return appendCE(prefix, v, spare, gotP, orPanic(hexOf(got), gotP), orPanic(hexOf(want), wantP))
	}
	if problem := pastAppend(prefix, in, got, gotP == nil); problem != "" {
		return appendCE(prefix, v, spare, nil, hexOf(got).String()+" but "+problem, hexOf(want).String())
	}
	if gotP != nil || len(prefix) > 0 {
		return nil
	}
	return c.cfg.Keep(got, func(now []byte) *equiv.Counterexample {
		return appendCE(nil, v, false, nil, fmt.Sprintf("%x, which later became %x as more appends ran: not the caller's", want, now), hexOf(want).String())
	})
}

// pastAppend returns what is wrong with how out, an append to in (a copy
// of prefix), used in's array, where in's spare capacity held spareMarker:
// in's bytes changed, or, when out was written in place, a byte of the
// spare capacity after it changed.
func pastAppend(prefix, in, out []byte, returned bool) string {
	if !bytes.Equal(in, prefix) {
		return "changed the bytes of its input"
	}
	if !returned || cap(in) == len(in) || len(out) == 0 || equiv.AddrOf(out) != equiv.AddrOf(in[:cap(in)]) {
		return ""
	}
	full := in[:cap(in)]
	for i := len(out); i < len(full); i++ {
		if full[i] != spareMarker {
			return fmt.Sprintf("wrote past the appended bytes, at %d of the buffer", i)
		}
	}
	return ""
}

// packetNumber compares DecodePacketNumber(largest, truncated, pnLen): the
// packet number, or the panic (the reference panics for pnLen outside 1..4
// and largest in [2^62, 2^64-2]). It returns the counterexample, if any,
// with truncated cut to its low 8·pnLen bits if it still fails so, and the
// number of comparisons made.
func (c *checker) packetNumber(largest, truncated uint64, pnLen int) (*equiv.Counterexample, int) {
	in := Input{Func: funcDecodePacketNumber, Largest: largest, Truncated: truncated, PNLen: pnLen}
	if c.skip(in) {
		return nil, 0
	}
	ce := c.pnAt(largest, truncated, pnLen)
	if ce == nil {
		return nil, 1
	}
	if pnLen >= 1 && pnLen <= 4 {
		if low := truncated & (1<<(8*pnLen) - 1); low != truncated {
			in.Truncated = low
			if !equiv.Excluded(c.cfg, in) {
				if lce := c.pnAt(largest, low, pnLen); lce != nil {
					return lce, 1
				}
			}
		}
	}
	return ce, 1
}

func (c *checker) pnAt(largest, truncated uint64, pnLen int) *equiv.Counterexample {
	want, wantP := callPN(quic.DecodePacketNumber, largest, truncated, pnLen)
	got, gotP := callPN(c.impl.DecodePacketNumber, largest, truncated, pnLen)
	if c.agree(gotP, wantP, got == want) {
		return nil
	}
	return pnCE(largest, truncated, pnLen, gotP, orPanic(pnString(got), gotP), orPanic(pnString(want), wantP))
}

// datagramCE is a counterexample of fn, one of readers, on data,
// reproduced by FuzzQUICHeader(data, sdl); p is the implementation's
// panic, if it panicked.
func datagramCE(fn string, data []byte, sdl int, p *equiv.Panic, got, want string) *equiv.Counterexample {
	return &equiv.Counterexample{
		Func:       fn,
		Input:      bytes.Clone(data),
		Args:       fmt.Sprintf("shortDCIDLen=%d", sdl),
		Got:        got,
		Want:       want,
		Stack:      equiv.StackOf(p),
		FuzzTarget: targetHeader,
		FuzzArgs:   []any{bytes.Clone(data), sdl},
	}
}

// appendCE is a counterexample of AppendVarint(prefix, v). CheckInput
// appends the value its datagram decodes to, so a value appended to
// nothing is reproduced by FuzzQUICHeader.
func appendCE(prefix []byte, v uint64, spare bool, p *equiv.Panic, got, want string) *equiv.Counterexample {
	ce := &equiv.Counterexample{
		Func:  funcAppendVarint,
		Input: bytes.Clone(prefix),
		Args:  fmt.Sprintf("v=%#x spare=%v", v, spare),
		Got:   got,
		Want:  want,
		Stack: equiv.StackOf(p),
	}
	if len(prefix) == 0 && v <= quic.MaxVarint && !spare {
		ce.FuzzTarget, ce.FuzzArgs = targetHeader, []any{quic.AppendVarint(nil, v), 0}
	}
	return ce
}

// pnCE is a counterexample of DecodePacketNumber, reproduced by
// FuzzQUICPacketNumber.
func pnCE(largest, truncated uint64, pnLen int, p *equiv.Panic, got, want string) *equiv.Counterexample {
	return &equiv.Counterexample{
		Func:       funcDecodePacketNumber,
		Args:       fmt.Sprintf("largest=%#x truncated=%#x pnLen=%d", largest, truncated, pnLen),
		Got:        got,
		Want:       want,
		Stack:      equiv.StackOf(p),
		FuzzTarget: targetPacketNumber,
		FuzzArgs:   []any{largest, truncated, pnLen},
	}
}

// note adds a coordinate to ce.Args and returns ce.
func note(ce *equiv.Counterexample, format string, args ...any) *equiv.Counterexample {
	ce.Args = strings.TrimSpace(ce.Args + " " + fmt.Sprintf(format, args...))
	return ce
}

// modified marks an implementation's result that agrees with the
// reference's although the input changed.
func modified(got string, same bool) string {
	if same {
		return got + " but modified the input"
	}
	return got
}

// orPanic renders a result, or the panic that replaced it.
func orPanic(result fmt.Stringer, p *equiv.Panic) string {
	if p != nil {
		return showPanic(p)
	}
	return result.String()
}

type hexOf []byte

func (b hexOf) String() string { return fmt.Sprintf("%x", []byte(b)) }

type pnString uint64

func (pn pnString) String() string { return fmt.Sprintf("%d (%#x)", uint64(pn), uint64(pn)) }
