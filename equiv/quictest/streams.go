package quictest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/internal/iosource"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// errStream is the failure of the suite's streams when a domain asks for
// one other than io.EOF; an implementation must return it as it is.
var errStream = errors.New("quictest: stream failed")

// streamKind is how a stream hands out its bytes.
type streamKind uint8

const (
	// byteScript: an io.ByteReader of the suite's, one byte per call.
	byteScript streamKind = iota
	// bytesReader: a *bytes.Reader (which ends with io.EOF).
	bytesReader
	// peekExact: a Peeker returning exactly the bytes asked for, as
	// subslices of the input.
	peekExact
	// peekExtra: a Peeker returning every byte it has, more than asked.
	peekExtra
	// peekFlip: a Peeker whose second and later answers have the top two
	// bits of their first byte flipped: the length must come from the
	// first answer.
	peekFlip
	// peekBufio: a *bufio.Reader of 16 bytes over the input.
	peekBufio
	// readBufio: ReadVarint from a *bufio.Reader of 16 bytes over the
	// input, which is a Peeker too: an implementation may peek at it,
	// but must consume the integer's bytes and no more.
	readBufio
	// readConsumed: ReadVarint from a *bytes.Reader over three other
	// bytes and the input, the three already read: the integer starts
	// where the reader is, not at the start of its array.
	readConsumed
	// readNested: the byte reader, whose every ReadByte first reads an
	// integer from a stream of its own with the same ReadVarint, so that
	// the function is called again from inside its own call.
	readNested

	// The kinds of the scale method's (n, err) forms (ioEdgeStreams).

	// byteEndByte: the byte reader, whose failure at the end comes with
	// a byte value (0xa5), which io.ByteReader says is undefined.
	byteEndByte
	// byteFailsOnce: the byte reader, failing once at offset at with
	// errStream and then going on, as a reader with a deadline does.
	byteFailsOnce
	// peekEndData: the exact peeker, whose answer that reaches the end of
	// its bytes comes with the end's error: data with an error, as
	// io.Reader allows (quic-go/quic-go#5876).
	peekEndData
	// peekAllEnd: a peeker answering every Peek with all it has and the
	// end's error.
	peekAllEnd
	// readBufioOver: ReadVarint from a *bufio.Reader of 16 octets over an
	// iosource reader of kind under acting at at.
	readBufioOver
	// peekBufioOver: PeekVarint likewise.
	peekBufioOver
)

// nestedVarint is what readNested's inner streams hold: 37, in 2 bytes
// (RFC 9000 §A.1's example).
var nestedVarint = []byte{0x40, 0x25}

// stream is one way a stream over the input behaves: its kind, and what
// it returns once the input is used up (io.EOF, errStream, or, for a
// Peeker that breaks its contract, nil with fewer bytes than asked); for
// the kinds that act at an offset, the offset, and for a *bufio.Reader
// over a reader of package iosource, that reader's kind.
type stream struct {
	kind  streamKind
	end   error
	at    int
	under iosource.Kind
}

func (s stream) fn() string {
	switch s.kind {
	case byteScript, bytesReader, readBufio, readConsumed, readNested, byteEndByte, byteFailsOnce, readBufioOver:
		return funcReadVarint
	}
	return funcPeekVarint
}

func (s stream) String() string {
	names := [...]string{"byte-reader", "bytes.Reader", "peeker", "peeker-extra", "peeker-flip", "bufio.Reader",
		"bufio.Reader", "bytes.Reader-3-read", "byte-reader-reentered",
		"byte-reader-end-with-a-byte", "byte-reader-failing-once-at-%d", "peeker-end-with-data", "peeker-all-with-end",
		"bufio.Reader-over-%s", "bufio.Reader-over-%s"}
	name := names[s.kind]
	switch s.kind {
	case byteFailsOnce:
		name = fmt.Sprintf(name, s.at)
	case readBufioOver, peekBufioOver:
		name = fmt.Sprintf(name, strings.ReplaceAll(s.under.Name(s.at), " ", "-"))
	}
	return fmt.Sprintf("stream=%s end=%s", name, errName(s.end))
}

// cheapStreams are the streams CheckInput reads every datagram from:
// ReadVarint from a byte reader and a *bytes.Reader, PeekVarint from an
// exact peeker, all ending with io.EOF.
var cheapStreams = []stream{{kind: byteScript, end: io.EOF}, {kind: bytesReader, end: io.EOF}, {kind: peekExact, end: io.EOF}}

// allStreams are every stream of the exhaustive domain: every kind, and
// every end each kind can have.
var allStreams = []stream{
	{kind: byteScript, end: io.EOF}, {kind: byteScript, end: errStream}, {kind: bytesReader, end: io.EOF},
	{kind: peekExact, end: io.EOF}, {kind: peekExact, end: errStream}, {kind: peekExact, end: nil},
	{kind: peekExtra, end: io.EOF}, {kind: peekFlip, end: io.EOF},
	{kind: peekBufio, end: io.EOF}, {kind: peekBufio, end: errStream},
	{kind: readBufio, end: io.EOF}, {kind: readBufio, end: errStream}, {kind: readConsumed, end: io.EOF}, {kind: readNested, end: io.EOF},
}

// streamState is what a call did to its stream: the bytes it consumed,
// the ReadByte calls it made, the Peek sizes it asked for (the first four,
// and whether there were more).
type streamState struct {
	consumed, calls int
	asked           [4]int
	more            bool
	nestedWrong     bool // a readNested inner read returned other than 37, 2, nil
}

// scripted is the suite's own stream over data, handed out as a
// byteStream or a peekStream so that a function gets only the one method.
type scripted struct {
	data  []byte
	end   error
	kind  streamKind
	at    int  // where byteFailsOnce fails
	fired bool // and whether it has
	state streamState
}

// byteStream is scripted as an io.ByteReader; with nest set, each
// ReadByte first reads nestedVarint with it.
type byteStream struct {
	s    *scripted
	nest func(io.ByteReader) (uint64, int, error)
}

func (b byteStream) ReadByte() (byte, error) {
	if b.nest != nil {
		if v, n, err := b.nest(bytes.NewReader(nestedVarint)); v != 37 || n != 2 || err != nil {
			b.s.state.nestedWrong = true
		}
	}
	return b.s.readByte()
}

// peekStream is scripted as a Peeker.
type peekStream struct{ s *scripted }

func (p peekStream) Peek(n int) ([]byte, error) { return p.s.peek(n) }

func (s *scripted) readByte() (byte, error) {
	s.state.calls++
	if s.kind == byteFailsOnce && !s.fired && s.state.consumed == s.at {
		s.fired = true
		return 0, errStream
	}
	if s.state.consumed >= len(s.data) {
		if s.kind == byteEndByte {
			return 0xa5, s.end
		}
		return 0, s.end
	}
	c := s.data[s.state.consumed]
	s.state.consumed++
	return c, nil
}

func (s *scripted) peek(n int) ([]byte, error) {
	if s.state.calls < len(s.state.asked) {
		s.state.asked[s.state.calls] = n
	} else {
		s.state.more = true
	}
	s.state.calls++
	switch {
	case n < 0 || n > len(s.data) || s.kind == peekAllEnd:
		return s.data, s.end
	case s.kind == peekEndData && n == len(s.data):
		return s.data[:n:n], s.end
	}
	switch {
	case s.kind == peekExtra:
		return s.data, nil
	case s.kind == peekFlip && s.state.calls > 1 && n > 0:
		b := bytes.Clone(s.data[:n])
		b[0] ^= 0xc0
		return b, nil
	}
	return s.data[:n:n], nil
}

// streamRun is what one ReadVarint or PeekVarint call returned and did.
type streamRun struct {
	result varintResult
	state  streamState
	panic  *equiv.Panic
}

func (r streamRun) String() string {
	if r.panic != nil {
		return showPanic(r.panic)
	}
	s := fmt.Sprintf("%v, consumed %d", r.result, r.state.consumed)
	if r.state.calls > 0 {
		s += fmt.Sprintf(", %d calls", r.state.calls)
	}
	if r.state.asked != [4]int{} {
		s += fmt.Sprintf(", asked %v", r.state.asked)
		if r.state.more {
			s += " and more"
		}
	}
	if r.state.nestedWrong {
		s += ", a nested ReadVarint of 37 went wrong"
	}
	return s
}

// runStream calls read (ReadVarint) or peek (PeekVarint), as s says, on a
// stream over data, its error mapped by mapErr.
func runStream(read func(io.ByteReader) (uint64, int, error), peek func(quic.Peeker) (uint64, int, error),
	s stream, data []byte, mapErr func(error) error) (run streamRun) {
	var v uint64
	var n int
	var err error
	var after func() streamState
	run.panic = equiv.Catch(func() {
		switch s.kind {
		case bytesReader:
			r := bytes.NewReader(data)
			after = func() streamState { return streamState{consumed: len(data) - r.Len()} }
			v, n, err = read(r)
		case peekBufio, readBufio:
			under := bytes.NewReader(data)
			var src io.Reader = under
			if s.end != io.EOF {
				src = io.MultiReader(under, errReader{s.end})
			}
			r := bufio.NewReaderSize(src, 16)
			after = func() streamState { return streamState{consumed: len(data) - under.Len() - r.Buffered()} }
			if s.kind == readBufio {
				v, n, err = read(r)
			} else {
				v, n, err = peek(r)
			}
		case readBufioOver, peekBufioOver:
			under := &countingReader{r: iosource.New(s.under, s.at, data, errStream)}
			r := bufio.NewReaderSize(under, 16)
			after = func() streamState { return streamState{consumed: under.n - r.Buffered()} }
			if s.kind == readBufioOver {
				v, n, err = read(r)
			} else {
				v, n, err = peek(r)
			}
		case readConsumed:
			r := bytes.NewReader(append([]byte{0xde, 0xad, 0xbe}, data...))
			r.Seek(3, io.SeekStart)
			after = func() streamState { return streamState{consumed: len(data) - r.Len()} }
			v, n, err = read(r)
		default:
			sc := &scripted{data: data, end: s.end, kind: s.kind, at: s.at}
			after = func() streamState { return sc.state }
			switch {
			case s.kind == readNested:
				v, n, err = read(byteStream{s: sc, nest: read})
			case s.fn() == funcReadVarint:
				v, n, err = read(byteStream{s: sc})
			default:
				v, n, err = peek(peekStream{sc})
			}
		}
	})
	if run.panic == nil {
		run.result = varintResult{v, n, mapErr(err)}
		run.state = after()
	}
	return run
}

// countingReader counts the octets r hands out.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += min(max(n, 0), len(p))
	return n, err
}

// errReader always fails with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// notedStreams are the Impl's ReadVarint and PeekVarint, each call
// counted by the harness just before it runs (equiv.Harness.Note: a
// stream is no slice the harness places), the nested ones of readNested
// included.
func (c *checker) notedStreams() (read func(io.ByteReader) (uint64, int, error), peek func(quic.Peeker) (uint64, int, error)) {
	read = func(r io.ByteReader) (uint64, int, error) {
		c.h.Note(cReadVarint)
		return c.impl.ReadVarint(r)
	}
	peek = func(p quic.Peeker) (uint64, int, error) {
		c.h.Note(cPeekVarint)
		return c.impl.PeekVarint(p)
	}
	return read, peek
}

// streamAt compares in.Func (ReadVarint or PeekVarint) on stream s over
// data (the reference's) and b (the implementation's copy).
func (c *checker) streamAt(in Input, s stream, data, b []byte) *equiv.Counterexample {
	want := runStream(quic.ReadVarint, quic.PeekVarint, s, data, unmapped)
	read, peek := c.notedStreams()
	got := runStream(read, peek, s, b, c.cfg.MapError)
	same := c.agree(got.panic, want.panic, got.result == want.result && got.state == want.state)
	if same && bytes.Equal(b, data) {
		return nil
	}
	ce := &equiv.Counterexample{
		Func:  in.Func,
		Input: bytes.Clone(data),
		Args:  s.String(),
		Got:   modified(got.String(), same),
		Want:  want.String(),
		Stack: equiv.StackOf(got.panic),
	}
	for _, cheap := range cheapStreams {
		if s == cheap {
			ce.FuzzTarget, ce.FuzzArgs = targetHeader, []any{bytes.Clone(data), 0}
		}
	}
	return ce
}

// streamsAt compares in.Func on each of streams that it reads.
func (c *checker) streamsAt(in Input, data, b []byte, streams []stream) *equiv.Counterexample {
	for _, s := range streams {
		if s.fn() != in.Func {
			continue
		}
		if ce := c.streamAt(in, s, data, b); ce != nil {
			return ce
		}
	}
	return nil
}

// streamsPlaced compares in.Func on each of streams that it reads, over
// in.Data placed at st: laid out on read-only pages as a slice the function
// reads would be (the bytes a Peek returns are the stream's, which it
// must not write), the reference's copy alike, or flush against a guard
// page. It judges the memory around the bytes too.
func (c *checker) streamsPlaced(in Input, st site, streams []stream) *equiv.Counterexample {
	d := in.Data
	ref, b := d, []byte(nil)
	if st.g != nil {
		b = flush(st, d)
	} else {
		a := st.alignOf(len(d))
		ref, b = c.refBuf.Input(d, a), c.streamBuf.Input(d, a)
	}
	ce := c.streamsAt(in, ref, b, streams)
	if ce == nil && st.g == nil && !c.streamBuf.Intact() {
		ce = datagramCE(in.Func, d, 0, nil, "the same results, but wrote outside the input", "nothing written")
	}
	return noteLayout(ce, st, d)
}

// compareStream compares in.Func on stream s over in.Data, and returns the
// minimized counterexample, if any, and the number of comparisons made.
func (c *checker) compareStream(in Input, s stream) (*equiv.Counterexample, int) {
	return c.compareWith(in, func(t Input) *equiv.Counterexample { return c.streamsPlaced(t, laidOut, []stream{s}) })
}

// streamEncodings are the integers of the stream domain, each followed by
// at least one more byte: every first byte (every length prefix with
// every 6-bit top of the value) followed by 8 bytes, and the boundary
// values at every width they fit (non-minimal encodings included).
func streamEncodings() [][]byte {
	tail := []byte{0x5a, 0xc3, 0x01, 0xfe, 0x80, 0x7f, 0x00, 0xff}
	var encs [][]byte
	for first := range 0x100 {
		encs = append(encs, append([]byte{byte(first)}, tail...))
	}
	for _, v := range varintValues {
		for _, w := range varintWidths {
			if fits(v, w) {
				encs = append(encs, append(appendVarintWidth(nil, v, w, nil), 0xa5))
			}
		}
	}
	return encs
}

// streamVarints checks ReadVarint and PeekVarint on every stream of
// allStreams holding each of streamEncodings cut after every number of
// bytes from 0 to one past the integer: every position at which a stream
// can end or fail, before, inside and after the integer, with every end;
// then on random inputs of 0 to 9 bytes.
func (c *checker) streamVarints(r *equiv.Run) error {
	if c.impl.ReadVarint == nil && c.impl.PeekVarint == nil {
		return nil
	}
	check := func(d []byte, s stream, from string) error {
		ce, k := c.compareStream(Input{Func: s.fn(), Data: d}, s)
		if ce != nil {
			return r.Fail(note(ce, "from=%s", from))
		}
		r.Count(k)
		return nil
	}
	for _, enc := range streamEncodings() {
		w := 1 << (enc[0] >> 6)
		for k := 0; k <= w+1 && k <= len(enc); k++ {
			for _, s := range allStreams {
				if err := check(enc[:k:k], s, fmt.Sprintf("stream %x cut at %d", enc, k)); err != nil {
					return err
				}
			}
		}
	}
	rng := r.Rand()
	for range equiv.Pick(r, 1<<12, 1<<16, 1<<20) {
		d := make([]byte, rng.IntN(10))
		fillRandom(rng, d)
		if err := check(d, allStreams[rng.IntN(len(allStreams))], "random stream"); err != nil {
			return err
		}
	}
	return nil
}
