package quictest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/internal/iosource"
	"github.com/equivcheck/equivcheck/internal/contractknob"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// The scale method's streams: ReadVarint and PeekVarint through every
// (n, err) form their readers have (ioEdges), and after long histories
// from one reader (history).

// scaleStreams checks the stream functions through every (n, err) form
// of their readers, then after long histories.
func (c *checker) scaleStreams(r *equiv.Run, filler []byte) error {
	if c.impl.ReadVarint == nil && c.impl.PeekVarint == nil {
		return nil
	}
	if err := c.ioEdges(r); err != nil {
		return err
	}
	return c.histories(r, filler)
}

// ioEdgeStreams are the streams of the (n, err) forms, acting at offset
// at: a byte reader whose failure at the end comes with a byte, and one
// that fails once at at and goes on; a peeker whose answer that reaches
// its end comes with the end's error, and one that answers every Peek
// with all it has and that error; each ending with io.EOF and with an
// error of its own; ReadVarint from a *bufio.Reader over 1-octet reads,
// half reads, io.EOF with the last data, and a reader that fails at at or
// returns 0, nil there; PeekVarint from a *bufio.Reader over every reader
// of package iosource (a timeout, -1 and len(p)+1 at at included). A
// ReadVarint from a *bufio.Reader may peek ahead (the readBufio kind), so
// the readers whose outcome then depends on how far it peeked (a
// transient timeout, a count bufio panics on) are left to PeekVarint,
// whose Peeks are the contract's. The NoIOEdges knob makes every one a
// plain stream.
func ioEdgeStreams(at int) []stream {
	if contractknob.NoIOEdges.Load() {
		return []stream{{kind: byteScript, end: io.EOF}, {kind: peekExact, end: io.EOF},
			{kind: readBufio, end: io.EOF}, {kind: peekBufio, end: io.EOF}}
	}
	var out []stream
	for _, end := range []error{io.EOF, errStream} {
		out = append(out, stream{kind: byteEndByte, end: end}, stream{kind: byteFailsOnce, end: end, at: at},
			stream{kind: peekEndData, end: end}, stream{kind: peekAllEnd, end: end})
	}
	for _, k := range []iosource.Kind{iosource.OneByte, iosource.Half, iosource.DataErr, iosource.Fails, iosource.Zero} {
		out = append(out, stream{kind: readBufioOver, end: io.EOF, under: k, at: at})
	}
	for k := iosource.Plain; k <= iosource.TooMany; k++ {
		out = append(out, stream{kind: peekBufioOver, end: io.EOF, under: k, at: at})
	}
	return out
}

// edgeEncodings are the integers of the (n, err) forms: 0, a middle value
// and the largest of each width, each followed by two octets.
func edgeEncodings() [][]byte {
	var encs [][]byte
	for _, w := range varintWidths {
		limit := uint64(1) << (8*w - 2)
		for _, v := range []uint64{0, limit / 3, limit - 1} {
			encs = append(encs, append(appendVarintWidth(nil, v, w, nil), 0x5a, 0xc3))
		}
	}
	return encs
}

// ioEdges checks ReadVarint and PeekVarint on each of edgeEncodings cut
// after every number of octets from 0 to one past the integer, on every
// stream of ioEdgeStreams acting at the cut (those that act at an offset
// over the whole encoding, the others over the cut one), the calls
// counted under equiv.MechIOEdges.
func (c *checker) ioEdges(r *equiv.Run) error {
	var err error
	check := func() {
		for _, enc := range edgeEncodings() {
			w := 1 << (enc[0] >> 6)
			for k := 0; k <= w+1; k++ {
				for _, s := range ioEdgeStreams(k) {
					d := enc[:k:k]
					if s.kind == byteFailsOnce || s.under.AtOffset() {
						d = enc
					}
					ce, n := c.compareStream(Input{Func: s.fn(), Data: d}, s)
					if ce != nil {
						err = r.Fail(note(ce, "scale: (n, err) forms, cut at %d", k))
						return
					}
					r.Count(n)
				}
			}
		}
	}
	if contractknob.NoIOEdges.Load() {
		check()
	} else {
		c.h.Marking(equiv.MechIOEdges, check)
	}
	return err
}

// historyReader is a reader the histories read one stream from: open
// returns it over data (an io.ByteReader for ReadVarint, a quic.Peeker
// for PeekVarint), how many octets it has consumed, and how to skip n
// octets, as a caller skips a frame's payload after its length.
type historyReader struct {
	name  string
	peek  bool
	edges bool // reads 64 KiB in one Read: counted under MechIOEdges
	open  func(data []byte) (r any, pos func() int, skip func(int))
}

// historyReaders are a *bytes.Reader, a *bufio.Reader whose single Reads
// of its reader are 64 KiB (4 KiB with the NoIOEdges knob), and the
// suite's byte reader, for ReadVarint; the *bufio.Reader and the suite's
// exact peeker, for PeekVarint.
func historyReaders() []historyReader {
	size := 64 << 10
	if contractknob.NoIOEdges.Load() {
		size = 4 << 10
	}
	buffered := func(peek bool) historyReader {
		return historyReader{fmt.Sprintf("bufio.Reader-of-%d", size), peek, size > equiv.ScaleMin, func(data []byte) (any, func() int, func(int)) {
			under := &countingReader{r: bytes.NewReader(data)}
			br := bufio.NewReaderSize(under, size)
			return br, func() int { return under.n - br.Buffered() }, func(n int) { br.Discard(n) }
		}}
	}
	return []historyReader{
		{"bytes.Reader", false, false, func(data []byte) (any, func() int, func(int)) {
			br := bytes.NewReader(data)
			return br, func() int { return int(br.Size()) - br.Len() }, func(n int) { br.Seek(int64(n), io.SeekCurrent) }
		}},
		buffered(false),
		{"byte-reader", false, false, func(data []byte) (any, func() int, func(int)) {
			sc := &scripted{data: data, end: io.EOF, kind: byteScript}
			return byteStream{s: sc}, func() int { return sc.state.consumed }, func(n int) { sc.state.consumed += n }
		}},
		buffered(true),
		{"peeker", true, false, func(data []byte) (any, func() int, func(int)) {
			sc := &scripted{data: data, end: io.EOF, kind: peekExact}
			at := 0
			return peekStream{sc}, func() int { return at }, func(n int) { at += n; sc.data = sc.data[n:] }
		}},
	}
}

// historyStream returns a stream of frames, as QUIC's are read: for each
// length of equiv.History (at least a thousand, from 0 to past 32 KiB), a
// varint of that value (on the shortest width, every seventh on 8
// octets) and that many octets of payload, from filler; and the offsets
// where the varints start.
func historyStream(rng *rand.Rand, filler []byte) ([]byte, []int) {
	var d []byte
	var starts []int
	for n := range equiv.History(rng) {
		starts = append(starts, len(d))
		w := quic.VarintLen(uint64(n))
		if len(starts)%7 == 0 {
			w = 8
		}
		d = appendVarintWidth(d, uint64(n), w, nil)
		d = append(d, filler[:n]...)
	}
	return d, starts
}

// histories reads the history stream through each of historyReaders, the
// reference from its own reader over its own copy: each call of the
// implementation's must return what the reference's does and leave its
// reader where the reference's is; then both skip the payload. The calls
// count under equiv.MechHistory, and under MechScale once 32 KiB have
// been read.
func (c *checker) histories(r *equiv.Run, filler []byte) error {
	rng := rand.New(rand.NewPCG(r.Config().Seed(), 0x415))
	data, starts := historyStream(rng, filler)
	if len(starts) == 0 {
		return nil // the NoHistory knob
	}
	b := c.streamBuf.Input(data, 0)
	var ce *equiv.Counterexample
	c.h.Marking(equiv.MechHistory, func() {
		for _, hr := range historyReaders() {
			if ce = c.history(r, hr, data, b, starts); ce != nil {
				return
			}
		}
	})
	if ce != nil {
		return r.Fail(ce)
	}
	return nil
}

// history reads data (the reference's) and b (the implementation's copy)
// through two readers of kind hr, one varint per start and its payload
// skipped, comparing each call.
func (c *checker) history(r *equiv.Run, hr historyReader, data, b []byte, starts []int) *equiv.Counterexample {
	fn := funcReadVarint
	if hr.peek {
		fn = funcPeekVarint
	}
	if !c.impl.has(fn) {
		return nil
	}
	wantR, wantPos, wantSkip := hr.open(data)
	gotR, gotPos, gotSkip := hr.open(b)
	read, peek := c.notedStreams()
	for i, start := range starts {
		want := historyCall(wantR, hr.peek, quic.ReadVarint, quic.PeekVarint, unmapped)
		var got streamRun
		call := func() { got = historyCall(gotR, hr.peek, read, peek, c.cfg.MapError) }
		c.marked(start >= equiv.ScaleMin, equiv.MechScale, func() { c.marked(hr.edges, equiv.MechIOEdges, call) })
		got.state.consumed, want.state.consumed = gotPos(), wantPos()
		if !c.agree(got.panic, want.panic, got.result == want.result && got.state == want.state) {
			return &equiv.Counterexample{
				Func:  fn,
				Input: bytes.Clone(data[start:min(start+16, len(data))]),
				Args:  fmt.Sprintf("history: call %d of %d from one stream=%s, %d octets in", i+1, len(starts), hr.name, start),
				Got:   got.String(),
				Want:  want.String(),
				Stack: equiv.StackOf(got.panic),
			}
		}
		r.Count(1)
		skip := len(data) // the payload: the value read, and for a Peeker the varint too
		if want.result.err == nil && want.result.v < uint64(len(data)) {
			skip = int(want.result.v)
			if hr.peek {
				skip += want.result.n
			}
		}
		wantSkip(min(skip, len(data)))
		gotSkip(min(skip, len(data)))
	}
	return nil
}

// historyCall calls peek on rd, a quic.Peeker, if usePeek, else read on
// rd, an io.ByteReader, its error mapped by mapErr.
func historyCall(rd any, usePeek bool, read func(io.ByteReader) (uint64, int, error), peek func(quic.Peeker) (uint64, int, error), mapErr func(error) error) (run streamRun) {
	var v uint64
	var n int
	var err error
	run.panic = equiv.Catch(func() {
		if usePeek {
			v, n, err = peek(rd.(quic.Peeker))
		} else {
			v, n, err = read(rd.(io.ByteReader))
		}
	})
	if run.panic == nil {
		run.result = varintResult{v, n, mapErr(err)}
	}
	return run
}

// marked runs f, its calls counted under m too if on (equiv.Harness.Marking).
func (c *checker) marked(on bool, m equiv.Mechanism, f func()) {
	if on {
		c.h.Marking(m, f)
		return
	}
	f()
}
