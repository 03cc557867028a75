package quictest

import (
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

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
		if d := equiv.AddrOf(s) - equiv.AddrOf(in); d < uintptr(len(in)) && int(d)+len(s) <= len(in) {
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
// relative to the parsed input, with the error as Config.MapError maps an
// implementation's. It is comparable with ==: two parses that did not
// panic agree exactly when their views are equal.
type hdrView struct {
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

func (v hdrView) String() string {
	var b strings.Builder
	z := v
	z.err = nil
	if z == zeroHdrView {
		b.WriteString("Header{}")
	} else {
		v.writeFields(&b)
	}
	b.WriteString(", ")
	b.WriteString(errName(v.err))
	return b.String()
}

func (v hdrView) writeFields(b *strings.Builder) {
	fmt.Fprintf(b, "%v", v.typ)
	if v.typ.IsLongHeader() || v.version != 0 {
		fmt.Fprintf(b, " v=%#08x", v.version)
	}
	for _, f := range []struct {
		name string
		sp   span
	}{{"DCID", v.dcid}, {"SCID", v.scid}, {"Token", v.token}, {"SupportedVersions", v.versions}, {"IntegrityTag", v.tag}, {"Packet", v.packet}} {
		if !f.sp.isNil {
			fmt.Fprintf(b, " %s=%v", f.name, f.sp)
		}
	}
	if v.length != 0 {
		fmt.Fprintf(b, " Length=%d", v.length)
	}
	if v.pnOffset != 0 {
		fmt.Fprintf(b, " PNOffset=%d", v.pnOffset)
	}
	if v.spin {
		b.WriteString(" Spin")
	}
	if v.methodPanic != "" {
		fmt.Fprintf(b, " (a method panicked: %s)", v.methodPanic)
	}
}

// parsed is what one ParseHeader call did: the view of its result, or its
// panic.
type parsed struct {
	view  hdrView
	panic *equiv.Panic
}

// run runs f, a call of the implementation through k (equiv.Call.Do) or,
// if k is nil, of the reference (equiv.Catch), and returns its panic.
func run(k *equiv.Call, f func()) *equiv.Panic {
	if k == nil {
		return equiv.Catch(f)
	}
	return k.Do(f)
}

// parseWith runs parse on in through k (nil: the reference's, see run)
// and views its result, its error mapped by mapErr.
func parseWith(parse func([]byte, int) (quic.Header, error), in []byte, sdl int, mapErr func(error) error, k *equiv.Call) parsed {
	var h quic.Header
	var err error
	if p := run(k, func() { h, err = parse(in, sdl) }); p != nil {
		return parsed{panic: p}
	}
	return parsed{view: viewOf(in, h, mapErr(err))}
}

func (p parsed) String() string {
	if p.panic != nil {
		return showPanic(p.panic)
	}
	return p.view.String()
}

// seqView is what a Packets iterator yielded, each Header viewed relative
// to the whole datagram, and anything wrong with how it iterated: a note,
// or the panic that ended it.
type seqView struct {
	items []hdrView
	note  string
	panic *equiv.Panic
}

func (a seqView) sameItems(b seqView) bool {
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
	if a.panic != nil {
		fmt.Fprintf(&b, "; %s after %d packets", showPanic(a.panic), len(a.items))
	}
	return b.String()
}

// iterStop unwinds an iterator that kept yielding after being told to stop.
type iterStop struct{}

// runPackets collects what packets(in, sdl), called through k (see run), yields,
// errors mapped by mapErr, stopping the range loop after stopAt items (0:
// never). An iterator that yields again after being stopped, or yields
// more items than the datagram has bytes, is noted; one that panics is
// recorded. It returns the sequence too, for a range after in changed
// (nil if packets panicked).
//
// A sequence ranged to its end (stopAt 0) is ranged a second time, as an
// iter.Seq may be: the second pass must yield what the first did.
func runPackets(packets func([]byte, int) iter.Seq2[quic.Header, error], in []byte, sdl, stopAt int, mapErr func(error) error, k *equiv.Call) (v seqView, seq iter.Seq2[quic.Header, error]) {
	if p := run(k, func() { seq = packets(in, sdl) }); p != nil {
		v.panic = p
		return v, nil
	}
	v = rangePackets(seq, in, stopAt, mapErr, k)
	if stopAt != 0 || v.panic != nil || v.note != "" {
		return v, seq
	}
	if again := rangePackets(seq, in, 0, mapErr, k); !again.sameItems(v) || again.panic != nil {
		v.note = fmt.Sprintf("ranged a second time, the sequence yielded %v", again)
	}
	return v, seq
}

// rangePackets ranges seq once, through k (see run), as runPackets says.
func rangePackets(seq iter.Seq2[quic.Header, error], in []byte, stopAt int, mapErr func(error) error, k *equiv.Call) (v seqView) {
	limit := len(in) + 2 // every packet but an error is at least one byte
	stopped := false
	p := run(k, func() {
		seq(func(h quic.Header, err error) bool {
			switch {
			case stopped:
				v.note = fmt.Sprintf("yielded again after the loop stopped at packet %d", len(v.items))
				panic(iterStop{})
			case len(v.items) >= limit:
				v.note = fmt.Sprintf("yielded more than %d packets", limit)
				panic(iterStop{})
			}
			v.items = append(v.items, viewOf(in, h, mapErr(err)))
			if len(v.items) == stopAt {
				stopped = true
				return false
			}
			return true
		})
	})
	if _, stop := equiv.PanicValue(p).(iterStop); p != nil && !stop {
		v.panic = p
	}
	return v
}

// varintResult is what a ParseVarint call returned.
type varintResult struct {
	v   uint64
	n   int
	err error
}

func (r varintResult) String() string {
	return fmt.Sprintf("(%d, %d, %s)", r.v, r.n, errName(r.err))
}

// callVarint calls f on b through k (see run), its error mapped by mapErr.
func callVarint(f func([]byte) (uint64, int, error), b []byte, mapErr func(error) error, k *equiv.Call) (r varintResult, p *equiv.Panic) {
	p = run(k, func() { r.v, r.n, r.err = f(b) })
	if p != nil {
		return varintResult{}, p
	}
	r.err = mapErr(r.err)
	return r, nil
}

func callPN(f func(uint64, uint64, int) uint64, largest, truncated uint64, pnLen int) (pn uint64, p *equiv.Panic) {
	p = equiv.Catch(func() { pn = f(largest, truncated, pnLen) })
	return pn, p
}

// unmapped is the reference's error mapping: none.
func unmapped(err error) error { return err }

// errorsByName are reference/quic's sentinel errors by name, as quicvectors
// names them.
var errorsByName = map[string]error{
	"ErrInvalidArgument":       quic.ErrInvalidArgument,
	"ErrTruncated":             quic.ErrTruncated,
	"ErrFixedBitClear":         quic.ErrFixedBitClear,
	"ErrCIDTooLong":            quic.ErrCIDTooLong,
	"ErrEmptyRetryToken":       quic.ErrEmptyRetryToken,
	"ErrBadVersionList":        quic.ErrBadVersionList,
	"ErrLengthExceedsDatagram": quic.ErrLengthExceedsDatagram,
	"ErrPacketTooShort":        quic.ErrPacketTooShort,
	"ErrDCIDMismatch":          quic.ErrDCIDMismatch,
	"ErrTrailingBytes":         quic.ErrTrailingBytes,
}

// streamErrors are the errors of the varint stream functions that are not
// reference/quic's own, by name.
var streamErrors = map[string]error{
	"io.EOF":              io.EOF,
	"io.ErrUnexpectedEOF": io.ErrUnexpectedEOF,
	"io.ErrNoProgress":    io.ErrNoProgress,
	"errStream":           errStream,
}

// errName names err: a sentinel by its name, nil as "nil", anything else
// (a wrapped or foreign error, which no implementation may return) by its
// type and text.
func errName(err error) string {
	if err == nil {
		return "nil"
	}
	for name, e := range errorsByName {
		if err == e {
			return name
		}
	}
	for name, e := range streamErrors {
		if err == e {
			return name
		}
	}
	return fmt.Sprintf("%T(%q)", err, err.Error())
}

// panicString renders a panic value with its type, so that panic("x") and
// panic(errors.New("x")) differ.
func panicString(p any) string { return fmt.Sprintf("%T %v", p, p) }

func showPanic(p *equiv.Panic) string { return "panic(" + panicString(p.Value) + ")" }
