package equiv

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
	"testing"

	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// QUICImpl is an implementation of QUIC header parsing (RFC 9000 §17,
// RFC 8999, RFC 9369), variable-length integers (RFC 9000 §16) and packet
// number decoding (RFC 9000 Appendix A.3) to check against reference/quic.
// It returns reference/quic's Header and sentinel errors, so that results
// are compared method by method and errors by identity. ParseVarint and
// ParseHeader are required; a nil AppendVarint, DecodePacketNumber or
// Packets is not checked (and the methods say so by comparing fewer
// inputs).
type QUICImpl struct {
	ParseVarint        func(b []byte) (uint64, int, error)
	AppendVarint       func(b []byte, v uint64) []byte
	DecodePacketNumber func(largest, truncated uint64, pnLen int) uint64
	ParseHeader        func(b []byte, shortDCIDLen int) (quic.Header, error)
	Packets            func(datagram []byte, shortDCIDLen int) iter.Seq2[quic.Header, error]
}

// CheckQUIC checks impl against reference/quic with every method at the
// configured level and returns the joined counterexamples (each matching
// ErrMismatch), or nil if impl agreed on every input. A Header agrees when
// every one of its methods reports the same thing: slices by nil-ness,
// length, capacity and offset into the parsed input (they must alias it),
// scalars by value; errors agree by identity, and a panic agrees only with
// a panic of the reference with the same value.
func CheckQUIC(impl QUICImpl, opts ...Option) error {
	if err := impl.validate(); err != nil {
		return err
	}
	cfg := newConfig(opts)
	s := &quicSuite{impl: impl, cfg: cfg}
	return runSuite("quic", cfg, []method{
		{name: MethodVectors, run: s.vectors},
		{name: MethodExhaustive, run: s.exhaustive},
		{name: MethodGuard, run: s.guard, skip: guardSkip()},
		{name: MethodProperties, run: s.properties},
		{name: MethodCorpus, run: s.corpus},
	})
}

// TestQUIC runs CheckQUIC as subtests of t, one per method.
func TestQUIC(t *testing.T, impl QUICImpl, opts ...Option) {
	t.Helper()
	testSuite(t, func(o ...Option) error { return CheckQUIC(impl, o...) }, opts)
}

// CheckQUICInput checks impl on one input of the fuzz target
// FuzzQUICHeader(datagram, shortDCIDLen): ParseHeader(datagram,
// shortDCIDLen); Packets(datagram, shortDCIDLen), the whole sequence and
// the sequence stopped after each of its packets; ParseVarint(datagram);
// and AppendVarint on the value ParseVarint decodes, if any. The fuzz
// targets and the corpus method call this, so a corpus file means the same
// thing to both. A disagreement is a minimized Counterexample.
func CheckQUICInput(impl QUICImpl, datagram []byte, shortDCIDLen int) error {
	if err := impl.validate(); err != nil {
		return err
	}
	s := &quicSuite{impl: impl, cfg: newConfig(nil)}
	if ce, _ := s.checkInput(datagram, shortDCIDLen); ce != nil {
		ce.Pair, ce.Method = "quic", "fuzz"
		return ce
	}
	return nil
}

// CheckQUICPacketNumber checks impl's DecodePacketNumber on one input of
// the fuzz target FuzzQUICPacketNumber: the decoded packet number, or the
// panic, must be the reference's. A nil DecodePacketNumber is not checked.
func CheckQUICPacketNumber(impl QUICImpl, largest, truncated uint64, pnLen int) error {
	s := &quicSuite{impl: impl, cfg: newConfig(nil)}
	if ce := s.checkPN(largest, truncated, pnLen); ce != nil {
		ce.Pair, ce.Method = "quic", "fuzz"
		return ce
	}
	return nil
}

func (impl QUICImpl) validate() error {
	if impl.ParseVarint == nil {
		return errors.New("equiv: QUICImpl.ParseVarint is nil")
	}
	if impl.ParseHeader == nil {
		return errors.New("equiv: QUICImpl.ParseHeader is nil")
	}
	return nil
}

type quicSuite struct {
	impl QUICImpl
	cfg  *config
	buf  []byte // scratch: where the implementation's copy of an input goes
}

// QUICPacketSpec describes one QUIC packet field by field, so that test
// datagrams can be built from a grammar: the suite's structured
// enumeration, its properties and the fuzz target FuzzQUICStructured all
// build packets with it. Append lays the fields out as RFC 9000 §17 (and
// RFC 9369 §3.2 for version 2) does for the packet type that First and
// Version select, and checks nothing, so any field may be wrong on purpose.
type QUICPacketSpec struct {
	// First is the first byte as sent: Header Form, Fixed Bit, type bits
	// and the rest. A short header (Header Form 0) is First, DCID, Payload.
	First byte
	// Version is a long header's Version field.
	Version uint32
	// DCID and SCID are the Connection IDs. A long header writes
	// byte(len(DCID)) and byte(len(SCID)) before them; a short header has
	// no SCID, and is parsed with shortDCIDLen = len(DCID).
	DCID, SCID []byte
	// Token is an Initial packet's Token. Its Token Length field is
	// len(Token)+TokenLenDelta, clamped to 0..2^62-1.
	Token         []byte
	TokenLenDelta int64
	// TokenLenWidth is the Token Length's encoded length: 0 for the
	// shortest, or 1, 2, 4 or 8 bytes when the value fits (non-minimal
	// encodings included), else the shortest.
	TokenLenWidth int
	// LengthDelta and LengthWidth do the same for the Length field of
	// Initial, 0-RTT and Handshake packets, which counts len(Payload).
	LengthDelta int64
	LengthWidth int
	// Payload is everything after the header fields: the Packet Number
	// and payload of Initial, 0-RTT, Handshake and 1-RTT packets, a Retry's
	// token and Integrity Tag, a Version Negotiation packet's version
	// list, the opaque rest of other versions.
	Payload []byte
}

// Append appends the packet that p describes to b, encoding varints with
// reference/quic's AppendVarint where the shortest encoding is asked for.
func (p QUICPacketSpec) Append(b []byte) []byte {
	b, _ = p.appendWith(b, quic.AppendVarint)
	return b
}

// quicLayout is where Append put the fields of a packet, as offsets from
// the packet's first byte.
type quicLayout struct {
	typ      quic.PacketType // the type First and Version select
	tokenLen int             // offset of an Initial's Token Length field
	token    int             // offset of an Initial's Token
	pnOffset int             // offset of the Packet Number (Initial, 0-RTT, Handshake, 1-RTT)
	tokenVal uint64          // the Token Length written
	length   uint64          // the Length written
}

// quicTypeBits maps the Long Packet Type bits to a type: RFC 9000 §17.2
// Table 5 for version 1, RFC 9369 §3.2 for version 2. It is written out
// here, apart from both implementations, so that the builder does not
// lean on the code it tests.
var quicTypeBits = map[uint32][4]quic.PacketType{
	quic.Version1: {quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake, quic.TypeRetry},
	quic.Version2: {quic.TypeRetry, quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake},
}

// quicFirstByte returns the first byte of a long header of version v (1 or
// 2) and type t, with the Fixed Bit set and low (the Type-Specific Bits) in
// the low nibble.
func quicFirstByte(v uint32, t quic.PacketType, low byte) byte {
	for bits, tt := range quicTypeBits[v] {
		if tt == t {
			return 0xc0 | byte(bits)<<4 | low&0x0f
		}
	}
	panic("equiv: no such long packet type")
}

// packetType returns the type First and Version select.
func (p QUICPacketSpec) packetType() quic.PacketType {
	switch {
	case p.First&0x80 == 0:
		return quic.Type1RTT
	case p.Version == quic.VersionNegotiation:
		return quic.TypeVersionNegotiation
	}
	table, ok := quicTypeBits[p.Version]
	if !ok {
		return quic.TypeUnsupportedVersion
	}
	return table[p.First>>4&3]
}

func (p QUICPacketSpec) appendWith(b []byte, appendVarint func([]byte, uint64) []byte) ([]byte, quicLayout) {
	start := len(b)
	lay := quicLayout{typ: p.packetType()}
	b = append(b, p.First)
	if lay.typ == quic.Type1RTT {
		b = append(b, p.DCID...)
		lay.pnOffset = len(b) - start
		return append(b, p.Payload...), lay
	}
	b = append(b, byte(p.Version>>24), byte(p.Version>>16), byte(p.Version>>8), byte(p.Version))
	b = append(b, byte(len(p.DCID)))
	b = append(b, p.DCID...)
	b = append(b, byte(len(p.SCID)))
	b = append(b, p.SCID...)
	switch lay.typ {
	case quic.TypeInitial:
		lay.tokenLen = len(b) - start
		lay.tokenVal = addClamped(len(p.Token), p.TokenLenDelta)
		b = appendVarintWidth(b, lay.tokenVal, p.TokenLenWidth, appendVarint)
		lay.token = len(b) - start
		b = append(b, p.Token...)
		fallthrough
	case quic.Type0RTT, quic.TypeHandshake:
		lay.length = addClamped(len(p.Payload), p.LengthDelta)
		b = appendVarintWidth(b, lay.length, p.LengthWidth, appendVarint)
		lay.pnOffset = len(b) - start
	}
	return append(b, p.Payload...), lay
}

// addClamped returns n+delta clamped to 0..2^62-1.
func addClamped(n int, delta int64) uint64 {
	switch {
	case delta <= -int64(n):
		return 0
	case delta >= quic.MaxVarint-int64(n):
		return quic.MaxVarint
	}
	return uint64(int64(n) + delta)
}

// appendVarintWidth appends v encoded on width bytes (1, 2, 4 or 8: RFC
// 9000 §16 allows non-minimal encodings) if it fits, else with
// appendShortest.
func appendVarintWidth(b []byte, v uint64, width int, appendShortest func([]byte, uint64) []byte) []byte {
	var prefix byte
	switch width {
	case 1:
	case 2:
		prefix = 0x40
	case 4:
		prefix = 0x80
	case 8:
		prefix = 0xc0
	default:
		return appendShortest(b, v)
	}
	if v >= 1<<(8*width-2) {
		return appendShortest(b, v)
	}
	for i := width - 1; i >= 0; i-- {
		c := byte(v >> (8 * i))
		if i == width-1 {
			c |= prefix
		}
		b = append(b, c)
	}
	return b
}

// Comparing Headers.

// span is where a slice returned by a Header method lies: its nil-ness,
// length and capacity, and its offset in the parsed input (-1 when it is
// not within the input; 0 for an empty slice, which aliases nothing).
// Equal spans in equal, unmodified inputs have equal contents, which is
// why the checks compare spans and check that the input is unmodified.
type span struct {
	isNil    bool
	off      int
	len, cap int
}

func spanOf(in, s []byte) span {
	if s == nil {
		return span{isNil: true}
	}
	sp := span{off: -1, len: len(s), cap: cap(s)}
	if len(s) == 0 {
		sp.off = 0
		return sp
	}
	if len(in) > 0 {
		if d := addrOf(s) - addrOf(in); d < uintptr(len(in)) && int(d)+len(s) <= len(in) {
			sp.off = int(d)
		}
	}
	return sp
}

func (sp span) String() string {
	switch {
	case sp.off < 0:
		return fmt.Sprintf("<%d bytes not in the input>", sp.len)
	case sp.cap != sp.len:
		return fmt.Sprintf("[%d:%d cap %d]", sp.off, sp.off+sp.len, sp.cap)
	}
	return fmt.Sprintf("[%d:%d]", sp.off, sp.off+sp.len)
}

// hdrView is what a parse returned, as a Header's methods report it
// relative to the parsed input. It is comparable with ==: two parses agree
// exactly when their views are equal.
type hdrView struct {
	panicked    string // the parse panicked with this value (%T %v)
	err         error
	typ         quic.PacketType
	version     uint32
	dcid, scid  span
	token       span
	versions    span // SupportedVersions
	tag         span // IntegrityTag
	packet      span
	length      uint64
	pnOffset    int
	spin        bool
	methodPanic string // a method of the Header panicked (a Header no parser returns)
}

// viewOf calls every method of h.
func viewOf(in []byte, h quic.Header, err error) (v hdrView) {
	v.err = err
	defer func() {
		if p := recover(); p != nil {
			v.methodPanic = panicString(p)
		}
	}()
	v.typ = h.Type()
	v.version = h.Version()
	v.dcid = spanOf(in, h.DCID())
	v.scid = spanOf(in, h.SCID())
	v.token = spanOf(in, h.Token())
	v.versions = spanOf(in, h.SupportedVersions())
	v.tag = spanOf(in, h.IntegrityTag())
	v.packet = spanOf(in, h.Packet())
	v.length = h.Length()
	v.pnOffset = h.PNOffset()
	v.spin = h.Spin()
	return v
}

var zeroHdrView = viewOf(nil, quic.Header{}, nil)

// parseView runs parse on in and returns the view of its result.
func parseView(parse func([]byte, int) (quic.Header, error), in []byte, sdl int) (v hdrView) {
	defer func() {
		if p := recover(); p != nil {
			v = hdrView{panicked: panicString(p)}
		}
	}()
	h, err := parse(in, sdl)
	return viewOf(in, h, err)
}

func (v hdrView) String() string {
	if v.panicked != "" {
		return "panic(" + v.panicked + ")"
	}
	var b strings.Builder
	z := v
	z.err = nil
	if z == zeroHdrView {
		b.WriteString("Header{}")
	} else {
		fmt.Fprintf(&b, "%v", v.typ)
		if v.typ.IsLongHeader() || v.version != 0 {
			fmt.Fprintf(&b, " v=%#08x", v.version)
		}
		for _, f := range []struct {
			name string
			sp   span
		}{{"DCID", v.dcid}, {"SCID", v.scid}, {"Token", v.token}, {"SupportedVersions", v.versions}, {"IntegrityTag", v.tag}, {"Packet", v.packet}} {
			if !f.sp.isNil {
				fmt.Fprintf(&b, " %s=%v", f.name, f.sp)
			}
		}
		if v.length != 0 {
			fmt.Fprintf(&b, " Length=%d", v.length)
		}
		if v.pnOffset != 0 {
			fmt.Fprintf(&b, " PNOffset=%d", v.pnOffset)
		}
		if v.spin {
			b.WriteString(" Spin")
		}
		if v.methodPanic != "" {
			fmt.Fprintf(&b, " (a method panicked: %s)", v.methodPanic)
		}
	}
	b.WriteString(", ")
	b.WriteString(quicErrName(v.err))
	return b.String()
}

// quicErrors are the sentinel errors by name, as quicvectors names them.
var quicErrors = map[string]error{
	"ErrInvalidArgument":       quic.ErrInvalidArgument,
	"ErrTruncated":             quic.ErrTruncated,
	"ErrFixedBitClear":         quic.ErrFixedBitClear,
	"ErrCIDTooLong":            quic.ErrCIDTooLong,
	"ErrEmptyRetryToken":       quic.ErrEmptyRetryToken,
	"ErrBadVersionList":        quic.ErrBadVersionList,
	"ErrLengthExceedsDatagram": quic.ErrLengthExceedsDatagram,
	"ErrPacketTooShort":        quic.ErrPacketTooShort,
	"ErrDCIDMismatch":          quic.ErrDCIDMismatch,
}

// quicErrName names err: a sentinel by its name, nil as "nil", anything
// else (a wrapped or foreign error, which no implementation may return) by
// its type and text.
func quicErrName(err error) string {
	if err == nil {
		return "nil"
	}
	for name, e := range quicErrors {
		if err == e {
			return name
		}
	}
	return fmt.Sprintf("%T(%q)", err, err.Error())
}

// panicString renders a panic value with its type, so that panic("x") and
// panic(errors.New("x")) differ.
func panicString(p any) string { return fmt.Sprintf("%T %v", p, p) }

// place copies data into the scratch buffer and returns the copy, with
// capacity equal to length.
func (s *quicSuite) place(data []byte) []byte {
	if cap(s.buf) < len(data) {
		s.buf = make([]byte, max(len(data), 2048))
	}
	b := s.buf[:len(data):len(data)]
	copy(b, data)
	return b
}

func (s *quicSuite) headerCE(data []byte, sdl int, got, want string) *Counterexample {
	return &Counterexample{
		Func:       "ParseHeader",
		Input:      bytes.Clone(data),
		Args:       fmt.Sprintf("shortDCIDLen=%d", sdl),
		Got:        got,
		Want:       want,
		FuzzTarget: "FuzzQUICHeader",
		FuzzArgs:   []any{bytes.Clone(data), sdl},
	}
}

// checkHeaderAt compares ParseHeader on data (the reference's input) and b
// (the implementation's: a copy of data, wherever the caller put it).
func (s *quicSuite) checkHeaderAt(data, b []byte, sdl int) *Counterexample {
	want := parseView(quic.ParseHeader, data, sdl)
	got := parseView(s.impl.ParseHeader, b, sdl)
	if got == want && bytes.Equal(b, data) {
		return nil
	}
	g := got.String()
	if got == want {
		g += " but modified the input"
	}
	return s.headerCE(data, sdl, g, want.String())
}

// checkHeader compares ParseHeader(data, sdl), and minimizes a
// disagreement if asked to.
func (s *quicSuite) checkHeader(data []byte, sdl int, minimize bool) *Counterexample {
	ce := s.checkHeaderAt(data, s.place(data), sdl)
	if ce == nil || !minimize {
		return ce
	}
	small := shrinkBytes(data, func(d []byte) bool { return s.checkHeaderAt(d, s.place(d), sdl) != nil })
	return s.checkHeaderAt(small, s.place(small), sdl)
}

// seqView is what a Packets iterator yielded, each Header viewed relative
// to the whole datagram, and anything wrong with how it iterated.
type seqView struct {
	items []hdrView
	note  string
}

func (a seqView) equal(b seqView) bool {
	if a.note != b.note || len(a.items) != len(b.items) {
		return false
	}
	for i := range a.items {
		if a.items[i] != b.items[i] {
			return false
		}
	}
	return true
}

func (a seqView) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d packets", len(a.items))
	for i, it := range a.items {
		fmt.Fprintf(&b, "; #%d %v", i+1, it)
	}
	if a.note != "" {
		fmt.Fprintf(&b, "; %s", a.note)
	}
	return b.String()
}

// iterStop unwinds an iterator that kept yielding after being told to stop.
type iterStop struct{}

// runPackets collects what packets(in, sdl) yields, stopping the range
// loop after stopAt items (0: never). An iterator that yields again after
// being stopped, yields more items than the datagram has bytes, or panics
// is noted.
func runPackets(packets func([]byte, int) iter.Seq2[quic.Header, error], in []byte, sdl, stopAt int) (v seqView) {
	limit := len(in) + 2 // every packet but an error is at least one byte
	stopped := false
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(iterStop); !ok {
				v.note = fmt.Sprintf("panic(%s) after %d packets", panicString(p), len(v.items))
			}
		}
	}()
	seq := packets(in, sdl)
	seq(func(h quic.Header, err error) bool {
		switch {
		case stopped:
			v.note = fmt.Sprintf("yielded again after the loop stopped at packet %d", len(v.items))
			panic(iterStop{})
		case len(v.items) >= limit:
			v.note = fmt.Sprintf("yielded more than %d packets", limit)
			panic(iterStop{})
		}
		v.items = append(v.items, viewOf(in, h, err))
		if len(v.items) == stopAt {
			stopped = true
			return false
		}
		return true
	})
	return v
}

// checkPacketsAt compares the Packets sequence on data (the reference's
// input) and b (the implementation's copy): the whole sequence, then the
// sequence stopped after each of its packets.
func (s *quicSuite) checkPacketsAt(data, b []byte, sdl int) *Counterexample {
	if s.impl.Packets == nil {
		return nil
	}
	want := runPackets(quic.Packets, data, sdl, 0)
	for stop := 0; stop <= len(want.items); stop++ {
		w := want
		if stop > 0 {
			w = seqView{items: want.items[:stop]}
		}
		got := runPackets(s.impl.Packets, b, sdl, stop)
		if got.equal(w) && bytes.Equal(b, data) {
			continue
		}
		ce := &Counterexample{
			Func:       "Packets",
			Input:      bytes.Clone(data),
			Args:       fmt.Sprintf("shortDCIDLen=%d", sdl),
			Got:        got.String(),
			Want:       w.String(),
			FuzzTarget: "FuzzQUICHeader",
			FuzzArgs:   []any{bytes.Clone(data), sdl},
		}
		if stop > 0 {
			ce.Args += fmt.Sprintf(" break-after=%d", stop)
		}
		if got.equal(w) {
			ce.Got += " but modified the input"
		}
		return ce
	}
	return nil
}

func (s *quicSuite) checkPackets(data []byte, sdl int, minimize bool) *Counterexample {
	ce := s.checkPacketsAt(data, s.place(data), sdl)
	if ce == nil || !minimize {
		return ce
	}
	small := shrinkBytes(data, func(d []byte) bool { return s.checkPacketsAt(d, s.place(d), sdl) != nil })
	return s.checkPacketsAt(small, s.place(small), sdl)
}

// varintResult is what a ParseVarint call returned.
type varintResult struct {
	v        uint64
	n        int
	err      error
	panicked string
}

func (r varintResult) String() string {
	if r.panicked != "" {
		return "panic(" + r.panicked + ")"
	}
	return fmt.Sprintf("(%d, %d, %s)", r.v, r.n, quicErrName(r.err))
}

func callVarint(f func([]byte) (uint64, int, error), b []byte) (r varintResult) {
	defer func() {
		if p := recover(); p != nil {
			r = varintResult{panicked: panicString(p)}
		}
	}()
	r.v, r.n, r.err = f(b)
	return r
}

func (s *quicSuite) checkVarintAt(data, b []byte) *Counterexample {
	want := callVarint(quic.ParseVarint, data)
	got := callVarint(s.impl.ParseVarint, b)
	if got == want && bytes.Equal(b, data) {
		return nil
	}
	ce := &Counterexample{
		Func:       "ParseVarint",
		Input:      bytes.Clone(data),
		Got:        got.String(),
		Want:       want.String(),
		FuzzTarget: "FuzzQUICHeader",
		FuzzArgs:   []any{bytes.Clone(data), 0},
	}
	if got == want {
		ce.Got += " but modified the input"
	}
	return ce
}

func (s *quicSuite) checkVarint(data []byte, minimize bool) *Counterexample {
	ce := s.checkVarintAt(data, s.place(data))
	if ce == nil || !minimize {
		return ce
	}
	small := shrinkBytes(data, func(d []byte) bool { return s.checkVarintAt(d, s.place(d)) != nil })
	return s.checkVarintAt(small, s.place(small))
}

func callAppend(f func([]byte, uint64) []byte, b []byte, v uint64) (out []byte, p string) {
	defer func() {
		if r := recover(); r != nil {
			p = panicString(r)
		}
	}()
	return f(b, v), ""
}

// checkAppend compares AppendVarint(prefix, v): the bytes, the prefix kept,
// or the panic (the reference panics above 2^62-1). The prefix is passed
// with room to spare when spare is set, and full to capacity otherwise.
func (s *quicSuite) checkAppend(prefix []byte, v uint64, spare bool) *Counterexample {
	if s.impl.AppendVarint == nil {
		return nil
	}
	want, wantP := callAppend(quic.AppendVarint, bytes.Clone(prefix), v)
	in := slices.Clip(bytes.Clone(prefix))
	if spare {
		in = append(make([]byte, 0, len(prefix)+16), prefix...)
	}
	got, gotP := callAppend(s.impl.AppendVarint, in, v)
	if gotP == wantP && bytes.Equal(got, want) && (got == nil) == (want == nil) {
		return nil
	}
	ce := &Counterexample{
		Func:  "AppendVarint",
		Input: bytes.Clone(prefix),
		Args:  fmt.Sprintf("v=%#x spare=%v", v, spare),
		Got:   fmt.Sprintf("%x", got),
		Want:  fmt.Sprintf("%x", want),
	}
	if gotP != "" {
		ce.Got = "panic(" + gotP + ")"
	}
	if wantP != "" {
		ce.Want = "panic(" + wantP + ")"
	}
	if len(prefix) == 0 && v <= quic.MaxVarint && !spare {
		// CheckQUICInput appends the value its datagram decodes to.
		ce.FuzzTarget, ce.FuzzArgs = "FuzzQUICHeader", []any{quic.AppendVarint(nil, v), 0}
	}
	return ce
}

func callPN(f func(uint64, uint64, int) uint64, largest, truncated uint64, pnLen int) (pn uint64, p string) {
	defer func() {
		if r := recover(); r != nil {
			p = panicString(r)
		}
	}()
	return f(largest, truncated, pnLen), ""
}

// checkPN compares DecodePacketNumber(largest, truncated, pnLen): the
// packet number, or the panic (the reference panics for pnLen outside 1..4
// and largest in [2^62, 2^64-2]).
func (s *quicSuite) checkPN(largest, truncated uint64, pnLen int) *Counterexample {
	if s.impl.DecodePacketNumber == nil {
		return nil
	}
	want, wantP := callPN(quic.DecodePacketNumber, largest, truncated, pnLen)
	got, gotP := callPN(s.impl.DecodePacketNumber, largest, truncated, pnLen)
	if gotP == wantP && got == want {
		return nil
	}
	show := func(pn uint64, p string) string {
		if p != "" {
			return "panic(" + p + ")"
		}
		return fmt.Sprintf("%d (%#x)", pn, pn)
	}
	return &Counterexample{
		Func:       "DecodePacketNumber",
		Args:       fmt.Sprintf("largest=%#x truncated=%#x pnLen=%d", largest, truncated, pnLen),
		Got:        show(got, gotP),
		Want:       show(want, wantP),
		FuzzTarget: "FuzzQUICPacketNumber",
		FuzzArgs:   []any{largest, truncated, pnLen},
	}
}

// checkInput runs CheckQUICInput's checks and returns the first
// disagreement, minimized, and the number of comparisons made.
func (s *quicSuite) checkInput(data []byte, sdl int) (*Counterexample, int) {
	n := 2
	if ce := s.checkHeader(data, sdl, true); ce != nil {
		return ce, n
	}
	if s.impl.Packets != nil {
		n++
		if ce := s.checkPackets(data, sdl, true); ce != nil {
			return ce, n
		}
	}
	if ce := s.checkVarint(data, true); ce != nil {
		return ce, n
	}
	if v, _, err := quic.ParseVarint(data); err == nil && s.impl.AppendVarint != nil {
		n++
		if ce := s.checkAppend(nil, v, false); ce != nil {
			return ce, n
		}
	}
	return nil, n
}

// quicInteresting are varint values at the edges of RFC 9000 §16's
// length classes, and beyond 2^62-1 (no encoding: AppendVarint panics).
var quicInteresting = func() []uint64 {
	var vs []uint64
	for _, edge := range []uint64{0, 1 << 6, 1 << 14, 1 << 30, 1 << 62} {
		for d := uint64(0); d <= 3; d++ {
			vs = append(vs, edge+d)
			if edge >= d && edge-d != edge {
				vs = append(vs, edge-d)
			}
		}
	}
	return append(vs, 0x15, 0x2a, 0x2aaa, 0x15555555, 0x2aaaaaaaaaaaaaaa, 1<<63, 1<<63+1, math.MaxUint64-1, math.MaxUint64)
}()
