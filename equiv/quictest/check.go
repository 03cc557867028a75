package quictest

import (
	"bytes"
	"fmt"
	"iter"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/contractknob"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// checker compares one Impl with the reference under one configuration.
// Every method run and every fuzz input builds its own, so that a Suite
// can be checked from several goroutines at once.
type checker struct {
	impl  Impl
	cfg   *equiv.Config
	h     *equiv.Harness // places every call's slices as its contract says
	fresh *equiv.Harness // another, whose buffers lie elsewhere (reused)
	// refBuf holds the reference's copy of an input, laid out as the
	// harness lays out the implementation's, so that the capacities of
	// the slices a Header returns compare as they are; streamBuf holds
	// the bytes the suite's streams hand out (ReadVarint and PeekVarint
	// take a stream, not a slice: its bytes are the suite's, on
	// read-only pages all the same, for a Peek's answer).
	refBuf, streamBuf equiv.Buffer
	run               *equiv.Run // the method's run, which records input sizes; nil for a fuzz input
	// stop is the one stop packetsAt tries while a counterexample found
	// there is minimized (-1: every stop), and failedStop where the last
	// disagreement packetsAt found was. fewStops, set by the scale
	// method, has packetsAt try the whole sequence and one stop only.
	stop, failedStop int
	fewStops         bool
	packetsN         int // Packets comparisons made (rerangeDue)
	// varied holds the contents vary gives an input, the last one's: a
	// counterexample copies what it keeps.
	varied []byte
}

func newChecker(impl Impl, cfg *equiv.Config) *checker {
	return &checker{impl: impl, cfg: cfg, h: equiv.NewHarness(cfg), stop: -1}
}

// site is where a call's input lies: laid out by the harness as the
// function's contract says (between canaries, with the spare capacity of
// the layout schedule, on read-only pages, flush against an unmapped page
// where the alignment puts one there) at the alignment align gives its
// length (placeAlign if nil), or, if g is set, flush against one of g's
// guard pages: the one after it if tail, else the one before it.
type site struct {
	g     *equiv.Guarded
	tail  bool
	align func(n int) int
	// shared has the reference read the implementation's copy (before
	// the implementation's call; the reference never writes), as the
	// scale method does with its megabytes, rather than a copy laid out
	// alike (refBuf): one placement of the input instead of two.
	shared bool
}

// laidOut is the site of almost every input: laid out by the harness at
// placeAlign.
var laidOut = site{}

// alignOf is the alignment an input of n bytes has at s (laid out).
func (s site) alignOf(n int) int {
	if s.align == nil {
		return placeAlign(n)
	}
	return s.align(n)
}

// where describes s for a counterexample: "" at an aligned site, whose
// layout the caller describes.
func (s site) where() string {
	switch {
	case s.g == nil:
		return ""
	case s.tail:
		return "ending at"
	}
	return "starting at"
}

// place places data, parameter 0 of k's function, where s says, and a
// copy for the reference: at an aligned site the reference's copy is laid
// out alike (refBuf).
func (c *checker) place(k *equiv.Call, s site, data []byte) (ref, impl []byte) {
	switch {
	case s.shared:
		b := k.Bytes(0, data, s.alignOf(len(data)))
		return b, b
	case s.g == nil:
		a := s.alignOf(len(data))
		return c.refBuf.Input(data, a), k.Bytes(0, data, a)
	}
	k.Mark(equiv.MechGuard)
	return data, flush(s, data)
}

// noteLayout adds to ce, found on data placed at s, where data lay: its
// layout at an aligned site (placedAs; the caller says where a guard
// page was).
func noteLayout(ce *equiv.Counterexample, s site, data []byte) *equiv.Counterexample {
	if ce != nil && s.g == nil {
		note(ce, "%s", placedAs(equiv.Reads, len(data), s.alignOf(len(data)), 0))
	}
	return ce
}

// flush copies data flush against s's guard page.
func flush(s site, data []byte) []byte {
	b := s.g.Head(len(data))
	if s.tail {
		b = s.g.Tail(len(data))
	}
	copy(b, data)
	return b
}

// placeAlign is the alignment of an input of n bytes: a function of n
// alone, so that FuzzQUICHeader's replay of a datagram lays it out alike,
// which over eight lengths in a row takes every spare capacity of the
// layout schedule, and over 512 every alignment.
func placeAlign(n int) int { return n >> 3 & 63 }

// placedAs describes where a slice of n bytes with access acc lay at
// align (of which w octets were appended), for a counterexample: its
// layout (equiv.LayoutFor), a function of those that a replay reproduces,
// without the read-only flag (every input is: the contract says which).
func placedAs(acc equiv.Access, n, align, w int) string {
	lay := equiv.LayoutFor(acc, n, align, w)
	lay.ReadOnly = false
	return lay.String()
}

// release gives the checker's buffers back (equiv.Harness.Release,
// equiv.Buffer.Release).
func (c *checker) release() {
	c.h.Release()
	if c.fresh != nil {
		c.fresh.Release()
	}
	c.refBuf.Release()
	c.streamBuf.Release()
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
	ce, n := c.readsWith(ch.readers, data, sdl, laidOut)
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

// reads compares every function of readers on (data, sdl), placed at s,
// and returns the first disagreement, minimized, and the number of
// comparisons made.
func (c *checker) reads(data []byte, sdl int, s site) (*equiv.Counterexample, int) {
	return c.readsWith(readers, data, sdl, s)
}

// readsWith is reads with the readers rs.
func (c *checker) readsWith(rs []reader, data []byte, sdl int, s site) (*equiv.Counterexample, int) {
	n := 0
	for _, rd := range rs {
		ce, k := c.compare(readerInput(rd, data, sdl), s)
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

// compare compares in.Func, one of readers, on in.Data placed at s. It
// returns the minimized counterexample, if any, and the number of
// comparisons made: 0 if in is skipped, else 1, and 2 when the harness
// checked it again at the same address with other contents (equiv.Again,
// every eighth call; a stream's bytes are not the function's, and not
// checked again).
func (c *checker) compare(in Input, s site) (*equiv.Counterexample, int) {
	switch {
	case in.Func == funcReadVarint || in.Func == funcPeekVarint:
		return c.compareWith(in, func(t Input) *equiv.Counterexample { return c.streamsPlaced(t, s, cheapStreams) })
	case s.g != nil:
		return c.compareWith(in, func(t Input) *equiv.Counterexample { return c.readPlaced(t, s) })
	}
	return c.compareAgain(in, func(t Input) *equiv.Counterexample { return c.readPlaced(t, s) })
}

// compareAgain compares in with at, which places t.Data where the
// harness lays it out and runs both implementations on it, and then, now
// and then, the same call with other contents at the same address
// (equiv.Again, c.vary). It returns the minimized counterexample, if any,
// and the number of comparisons made: 0 if in is skipped, else 1, or 2
// with the call made again.
func (c *checker) compareAgain(in Input, at func(Input) *equiv.Counterexample) (*equiv.Counterexample, int) {
	ce, n := c.compareWith(in, at)
	if ce != nil || n == 0 {
		return ce, n
	}
	ce, again := equiv.Again(c.h, in, c.vary, at)
	if again {
		n++
	}
	if ce != nil {
		v, _ := c.vary(in)
		return c.reused(in, v, ce, at), n
	}
	return nil, n
}

// vary returns in with other contents in the same places: each octet
// complemented (a datagram then has the other header form, a varint the
// other widths), and the value appended, if any, another of the same
// width. An implementation that remembers a result by its arguments and
// its buffer's address answers the old one. It returns false for an empty
// input but an append's (whose room and value still vary), one longer
// than varyMax, and one the configuration excludes.
func (c *checker) vary(in Input) (Input, bool) {
	appends := in.Func == funcAppendVarint || in.Func == funcAppendVarintWithLen
	if len(in.Data) == 0 && !appends || len(in.Data) > varyMax {
		return in, false
	}
	v := in
	if cap(c.varied) < len(in.Data) {
		c.varied = make([]byte, len(in.Data))
	}
	v.Data = c.varied[:len(in.Data)]
	for i, b := range in.Data {
		v.Data[i] = ^b
	}
	if appends {
		v.Value ^= 1
	}
	return v, !equiv.Excluded(c.cfg, v)
}

// varyMax is the longest input checked again with other contents: the
// scale method's largest at Quick. Its copy of the Standard level's 64
// MiB would add a quarter to the method's memory.
const varyMax = 4 << 20

// reused reports ce, the failure of v (in varied) checked again at the
// address where in had just passed. If v fails in buffers elsewhere too
// (a harness of its own), it is an input like any other, minimized with
// at; else what failed is the second call at one address, which no single
// input replays.
func (c *checker) reused(in, v Input, ce *equiv.Counterexample, at func(Input) *equiv.Counterexample) *equiv.Counterexample {
	if c.fresh == nil {
		c.fresh = equiv.NewHarness(c.cfg)
	}
	c.h, c.fresh = c.fresh, c.h
	alone := at(v)
	if alone != nil {
		alone = c.minimize(v, alone, at)
	}
	c.h, c.fresh = c.fresh, c.h
	if alone != nil {
		return alone
	}
	ce.Args = strings.TrimSpace(ce.Args + fmt.Sprintf(" (at the address where %s had just passed: the same call with other contents)", hexOf(in.Data)))
	ce.FuzzTarget, ce.FuzzArgs = "", nil
	return ce
}

// readPlaced compares in.Func, one of readers but the stream functions,
// on d placed at s by a call of the harness, and judges the memory around
// it: the implementation's copy must come back unmodified, with nothing
// written around it.
func (c *checker) readPlaced(in Input, s site) *equiv.Counterexample {
	d := in.Data
	k := c.h.Call(contract(in.Func))
	defer k.End()
	ref, b := c.place(k, s, d)
	ce := c.readAt(in, k, s, ref, b)
	if ce == nil && s.g == nil {
		if f := k.Flaw(); f != "" {
			ce = withOptions(in, datagramCE(in.Func, d, in.ShortDCIDLen, nil, "the same results, but "+f, "nothing written"))
		}
	}
	return noteLayout(ce, s, d)
}

// compareWith compares in.Func on in.Data with at, which runs both
// implementations on the input it is given, and returns the minimized
// counterexample, if any, and the number of comparisons made: 0 if in is
// skipped, else 1.
func (c *checker) compareWith(in Input, at func(Input) *equiv.Counterexample) (*equiv.Counterexample, int) {
	if c.skip(in) {
		return nil, 0
	}
	if c.run != nil {
		c.run.Size(len(in.Data))
	}
	ce := at(in)
	if ce == nil {
		return nil, 1
	}
	return c.minimize(in, ce, at), 1
}

// readAt compares in.Func on data (the reference's input: a copy of
// in.Data, or b itself at a shared site) and b (the implementation's copy
// of in.Data, placed by k at s); b must still hold in.Data afterwards.
func (c *checker) readAt(in Input, k *equiv.Call, s site, data, b []byte) *equiv.Counterexample {
	switch in.Func {
	case funcParseHeader, funcParseHeaderWith:
		return c.headerAt(in, k, data, b)
	case funcPackets, funcPacketsWith:
		return c.packetsAt(in, k, s, data, b)
	}
	return c.varintAt(in, k, data, b)
}

// longShrink is the longest input equiv.ShrinkBytes is given: its budget
// of tries, each placing the input twice, takes seconds on 64 KiB and
// more, where a bug that needs the length (a counter or an offset past
// 2^16) keeps it whatever is removed.
const longShrink = 16 << 10

// minimize shrinks in.Data, on which at found ce, to a smaller input that
// is still in scope and on which at still fails, and returns at's
// counterexample there. An input longer than longShrink is first cut to
// its shortest failing prefix by bisection (a bug that needs many bytes,
// an offset past 2^16, keeps just as many).
func (c *checker) minimize(in Input, ce *equiv.Counterexample, at func(Input) *equiv.Counterexample) *equiv.Counterexample {
	if in.Func == funcPackets || in.Func == funcPacketsWith {
		// Shrink on the stop that failed: every stop of a long sequence
		// costs a parse per packet.
		c.stop = c.failedStop
		defer func() { c.stop = -1 }()
	}
	with := func(d []byte) Input {
		t := in
		t.Data = d
		return t
	}
	fails := func(d []byte) bool {
		t := with(d)
		return !equiv.OutOfScope(c.cfg, t) && at(t) != nil
	}
	small := shrinkLong(in.Data, fails)
	if len(small) <= longShrink {
		small = equiv.ShrinkBytes(small, fails)
	}
	if sce := at(with(small)); sce != nil {
		return sce
	}
	return ce // the implementation is not deterministic
}

// shrinkLong cuts an input longer than longShrink to the shortest failing
// prefix a bisection finds (about log2(len) tries).
func shrinkLong(d []byte, fails func([]byte) bool) []byte {
	if len(d) <= longShrink {
		return d
	}
	return equiv.ShrinkPrefix(d, fails)
}

// headerAt compares ParseHeader, or ParseHeaderWith with in.Options, on
// data and b.
func (c *checker) headerAt(in Input, k *equiv.Call, data, b []byte) *equiv.Counterexample {
	ref, impl := c.headerFuncs(in)
	sdl := in.ShortDCIDLen
	want := parseWith(ref, data, sdl, unmapped, nil)
	got := parseWith(impl, b, sdl, c.cfg.MapError, k)
	same := c.agree(got.panic, want.panic, got.view == want.view)
	if same && bytes.Equal(b, in.Data) {
		return nil
	}
	return withOptions(in, datagramCE(in.Func, in.Data, sdl, got.panic, modified(got.String(), same), want.String()))
}

// packetsAt compares the Packets sequence, or PacketsWith's with
// in.Options, on data and b: the whole sequence, then the sequence
// stopped after each of its packets (of a long sequence, after each of
// its first and last stopEnds packets: every stop would make a datagram
// of n packets cost n^2 parses; in the scale method, after one packet),
// and the whole sequence ranged again after the datagram changed in
// place (rerange).
func (c *checker) packetsAt(in Input, k *equiv.Call, s site, data, b []byte) *equiv.Counterexample {
	ref, impl := c.packetsFuncs(in)
	sdl := in.ShortDCIDLen
	want, refSeq := runPackets(ref, data, sdl, 0, unmapped, nil)
	var whole iter.Seq2[quic.Header, error] // the implementation's sequence ranged to its end
	for _, stop := range c.stops(len(want.items)) {
		w := want
		if stop > 0 {
			w = seqView{items: want.items[:stop]}
		}
		got, seq := runPackets(impl, b, sdl, stop, c.cfg.MapError, k)
		same := c.agree(got.panic, w.panic, true) && got.sameItems(w)
		if same && bytes.Equal(b, in.Data) {
			if stop == 0 {
				whole = seq
			}
			continue
		}
		c.failedStop = stop
		ce := datagramCE(in.Func, in.Data, sdl, got.panic, modified(got.String(), same), w.String())
		if stop > 0 {
			note(ce, "break-after=%d", stop)
		}
		return withOptions(in, ce)
	}
	if whole == nil || s.g != nil || !c.rerangeDue() {
		return nil
	}
	return c.rerange(in, k, refSeq, whole, data, b, want)
}

// rerangeEvery is how often a method's Packets comparisons range the
// sequence again after changing its datagram (rerange): every one of a
// fuzz input's, and of one being minimized.
const rerangeEvery = 8

// rerangeDue reports whether this Packets comparison is one that ranges
// its sequence again after changing the datagram.
func (c *checker) rerangeDue() bool {
	c.packetsN++
	return c.run == nil || c.stop >= 0 || c.packetsN%rerangeEvery == 0
}

// stops are where packetsAt stops the range loop over a sequence of n
// items (0: never): at each of them, or of the first and last stopEnds;
// in the scale method, at none and the middle one; while a
// counterexample found at one is minimized, at it alone.
func (c *checker) stops(n int) []int {
	switch {
	case c.stop >= 0:
		// A failure's stop, kept while its input shrinks: never past the
		// sequence a shorter datagram has.
		return []int{min(c.stop, n)}
	case c.fewStops:
		return []int{0, (n + 1) / 2}[:min(n+1, 2)]
	}
	out := make([]int, 0, min(n+1, 2*stopEnds+2))
	for stop := 0; stop <= n; stop++ {
		if stop > stopEnds && stop < n-stopEnds {
			stop = n - stopEnds
		}
		out = append(out, stop)
	}
	return out
}

// stopEnds is how many stops at each end of a sequence packetsAt tries.
const stopEnds = 16

// rerange ranges refSeq and seq, the reference's and the
// implementation's sequences over data and b, which k placed, once more
// after changing both datagrams in place: every octet from the second
// packet on (from the middle, for a datagram of one item) is overwritten
// (equiv.Call.Poison; the reference's copy alike). The sequences must
// yield the new contents' packets: one that parsed the datagram when it
// was made, or remembers what it yielded, yields the old. packetsAt calls
// it for a datagram the harness placed only (not one at a guard page),
// and the NoReuse knob turns it off.
func (c *checker) rerange(in Input, k *equiv.Call, refSeq, seq iter.Seq2[quic.Header, error], data, b []byte, was seqView) *equiv.Counterexample {
	if seq == nil || len(b) == 0 || contractknob.NoReuse.Load() {
		return nil
	}
	lo := len(b) / 2
	if len(was.items) > 1 {
		lo = was.items[0].packet.len
	}
	k.Mark(equiv.MechReuse)
	k.Poison(0, lo, len(b))
	if !aliases(data, b) {
		c.refBuf.PoisonRange(lo, len(data))
	}
	want := rangePackets(refSeq, data, 0, unmapped, nil)
	got := rangePackets(seq, b, 0, c.cfg.MapError, k)
	if c.agree(got.panic, want.panic, true) && got.sameItems(want) {
		return nil
	}
	c.failedStop = 0
	ce := datagramCE(in.Func, in.Data, in.ShortDCIDLen, got.panic, got.String(), want.String())
	note(ce, "ranged-again-after=%d..%d-changed", lo, len(b))
	return withOptions(in, ce)
}

func (c *checker) varintAt(in Input, k *equiv.Call, data, b []byte) *equiv.Counterexample {
	want, wantP := callVarint(quic.ParseVarint, data, unmapped, nil)
	got, gotP := callVarint(c.impl.ParseVarint, b, c.cfg.MapError, k)
	same := c.agree(gotP, wantP, got == want)
	if same && bytes.Equal(b, in.Data) {
		return nil
	}
	ce := datagramCE(funcParseVarint, in.Data, 0, gotP, modified(orPanic(got, gotP), same), orPanic(want, wantP))
	ce.Args = ""
	return ce
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
	c.h.Note(cPN)
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

func (b hexOf) String() string {
	if len(b) > 64 {
		return fmt.Sprintf("%x…(%d bytes)", []byte(b[:32]), len(b))
	}
	return fmt.Sprintf("%x", []byte(b))
}

type pnString uint64

func (pn pnString) String() string { return fmt.Sprintf("%d (%#x)", uint64(pn), uint64(pn)) }
