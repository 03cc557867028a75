package websockettest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"testing/iotest"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// refStreams are the reference's streamers, in an Impl's shape.
var refStreams = Impl{
	NewMaskReader: func(r io.Reader, key [4]byte) MaskReader { return ref.NewMaskReader(r, key) },
	NewMaskWriter: func(w io.Writer, key [4]byte) MaskWriter { return ref.NewMaskWriter(w, key) },
}

// call is what one call of a streamer returned: for a Read, p[:n] after
// it; for a Write, everything the underlying writer holds after it.
type call struct {
	name string // "Read(5)", "Write(3)"
	n    int
	err  error
	data []byte
}

func (c call) String() string {
	if c.name[0] == 'R' {
		return fmt.Sprintf("%s = %d, %v; p[:n] = %x", c.name, c.n, c.err, c.data)
	}
	return fmt.Sprintf("%s = %d, %v; the writer holds %x", c.name, c.n, c.err, c.data)
}

// transcript is what a streamed case did: each call in order, the panic
// that ended it, if any, and the first breach of the contract that the
// results do not show (such as writing outside p).
type transcript struct {
	calls []call
	p     *equiv.Panic
	wrong string
}

// stream runs a streamed case on one implementation's streamers (or the
// reference's), each call's p placed by a.
type stream struct {
	impl   Impl
	a      arena
	mapErr func(error) error // the configuration's MapError, or nil for the reference
	t      transcript
	r      MaskReader
	w      MaskWriter
	sk     *sink
}

// runStream runs s and returns its transcript.
func runStream(impl Impl, s streamCase, a arena, mapErr func(error) error) transcript {
	x := &stream{impl: impl, a: a, mapErr: mapErr}
	run := func() {
		if s.fn == "MaskReader" {
			x.readCase(s)
		} else {
			x.writeCase(s)
		}
	}
	p := equiv.Catch(func() {
		if s.ioEdge() {
			x.marking(equiv.MechIOEdges, run)
			return
		}
		run()
	})
	if x.t.p == nil {
		x.t.p = p
	}
	return x.t
}

// stop ends the stream with p, the panic of a call: the rest of the case
// is not run (runStream keeps p, not the panic that unwinds it).
func (x *stream) stop(p *equiv.Panic) {
	x.t.p = p
	panic(stopped{})
}

// stopped unwinds a stream whose call panicked.
type stopped struct{}

// note notes a call of the function c declares that places no slice (New,
// Reset), on the implementation's stream.
func (x *stream) note(c *equiv.Contract) {
	if h := x.a.harness(); h != nil {
		h.Note(c)
	}
}

// marking runs f, counting the implementation's calls in it under
// mechanism m too (equiv.Harness.Marking).
func (x *stream) marking(m equiv.Mechanism, f func()) {
	if h := x.a.harness(); h != nil {
		h.Marking(m, f)
		return
	}
	f()
}

// newReader is NewMaskReader over src, noted.
func (x *stream) newReader(src io.Reader, key [4]byte) MaskReader {
	x.note(cNewReader)
	return x.impl.NewMaskReader(src, key)
}

// newWriter is NewMaskWriter over w, noted.
func (x *stream) newWriter(w io.Writer, key [4]byte) MaskWriter {
	x.note(cNewWriter)
	return x.impl.NewMaskWriter(w, key)
}

// source is newSource for the stream's implementation.
func (x *stream) source(kind, at int, wire []byte) io.Reader {
	return newSource(kind, at, wire, x.impl, x.a.harness())
}

// breach records what went wrong at the last call, if nothing did before.
func (x *stream) breach(what string) {
	if x.t.wrong == "" {
		x.t.wrong = fmt.Sprintf("call %d %s", len(x.t.calls), what)
	}
}

// goesOn reports whether a stream goes on after a call returned err: no
// error, or one that says "try again" (a timeout, EAGAIN, a short write,
// an invalid count), not io.EOF, a broken pipe or an unknown error.
func (x *stream) goesOn(err error) bool {
	if x.mapErr != nil {
		err = x.mapErr(err)
	}
	switch err {
	case nil, iotest.ErrTimeout, os.ErrDeadlineExceeded, errAgain, io.ErrShortWrite, ref.ErrInvalidRead, ref.ErrInvalidWrite:
		return true
	}
	return false
}

// readCase reads s's payload, as the octets on the wire, in Reads of the
// sizes its calls give, then of len(payload)+1 octets (at most tailRead),
// until the stream is over or len(payload)+8 more Reads were made (enough
// for one octet per Read, a timeout and the end). After a warm-up, the
// Reset and every call after it reuse the streamer (equiv.MechReuse).
func (x *stream) readCase(s streamCase) {
	switch {
	case s.warm > 0 && s.warmHere:
		src := x.source(s.kind, s.at+s.warm, append(bytes.Clone(s.payload[:s.warm]), s.payload...))
		x.r = x.newReader(src, s.warmKey())
		x.read(s.warm)
		x.marking(equiv.MechReuse, func() { x.resetReader(src, s.key); x.readAll(s) })
	case s.warm > 0:
		x.r = x.newReader(bytes.NewReader(s.payload[:s.warm]), s.warmKey())
		x.read(s.warm)
		x.marking(equiv.MechReuse, func() { x.resetReader(x.source(s.kind, s.at, s.payload), s.key); x.readAll(s) })
	default:
		x.r = x.newReader(x.source(s.kind, s.at, s.payload), s.key)
		x.readAll(s)
	}
}

// resetReader is the reader's Reset, noted.
func (x *stream) resetReader(src io.Reader, key [4]byte) {
	x.note(cRReset)
	x.r.Reset(src, key)
}

// readAll makes s's Reads.
func (x *stream) readAll(s streamCase) {
	ends, prev := s.callEnds(), 0
	for i := range len(ends) + len(s.payload) + 8 {
		size := min(len(s.payload)+1, tailRead)
		if i < len(ends) {
			size, prev = ends[i]-prev, ends[i]
		}
		if !x.read(size) {
			return
		}
	}
}

// tailRead bounds the Reads after a case's own: each places a p of its
// size, and a reader of one octet at a time makes as many Reads as there
// are octets.
const tailRead = 1024

// read makes one Read of size octets and reports whether the stream goes
// on.
func (x *stream) read(size int) bool {
	c := call{name: fmt.Sprintf("Read(%d)", size)}
	p, wrong := x.a.call(cRead, nil, size, func(p []byte) {
		c.n, c.err = x.r.Read(p)
		if c.n >= 0 && c.n <= len(p) {
			c.data = bytes.Clone(p[:c.n])
		}
	})
	if p != nil {
		x.stop(p)
	}
	x.t.calls = append(x.t.calls, c)
	if wrong != "" {
		x.breach(wrong)
	}
	return x.goesOn(c.err)
}

// writeCase writes s's payload in Writes of the lengths its calls give,
// each retried with what is left after an error the stream survives.
// After a warm-up, the Reset and every call after it reuse the streamer
// (equiv.MechReuse).
func (x *stream) writeCase(s streamCase) {
	x.sk = newSink(s.kind, s.at, x.impl, x.a.harness())
	if s.warm == 0 {
		x.w = x.newWriter(x.sk, s.key)
		x.writeAll(s)
		return
	}
	warm := &sink{}
	if s.warmHere {
		warm, x.sk.at = x.sk, s.at+s.warm
	}
	x.w = x.newWriter(warm, s.warmKey())
	x.write(warm, s.payload[:s.warm])
	x.marking(equiv.MechReuse, func() {
		x.note(cWReset)
		x.w.Reset(x.sk, s.key)
		x.writeAll(s)
	})
}

// writeAll makes s's Writes.
func (x *stream) writeAll(s streamCase) {
	prev := 0
	for _, end := range s.callEnds() {
		if !x.writeOut(s.payload[prev:end]) {
			return
		}
		prev = end
	}
}

// writeOut writes b, again with what is left after an error the stream
// survives (at most 3 more times: each failing writer fails once), and
// reports whether the stream goes on. Each retry is a Write of its own:
// its p is placed afresh, over the last one (which was poisoned), so that
// a writer that kept a view of what it did not take (to write it on the
// retry, as OpenSSL keeps a partial SSL_write's buffer) reads what is
// there now.
func (x *stream) writeOut(b []byte) bool {
	for tries := 0; ; tries++ {
		n, err := x.write(x.sk, b)
		if n < 0 || n > len(b) {
			return false
		}
		b = b[n:]
		switch {
		case err == nil || len(b) == 0:
			return true
		case !x.goesOn(err) || tries == 3:
			return false
		}
	}
}

// write makes one Write of a copy of b, placed by the arena, to a
// MaskWriter over sk, and checks that p is left as it was, during the
// call (sk looks at every underlying call) and after it.
func (x *stream) write(sk *sink, b []byte) (n int, err error) {
	p, wrong := x.a.call(cWrite, b, len(b), func(p []byte) {
		sk.fresh, sk.caller, sk.orig = true, p, b
		n, err = x.w.Write(p)
		sk.caller, sk.orig = nil, nil
	})
	if p != nil {
		x.stop(p)
	}
	x.t.calls = append(x.t.calls, call{name: fmt.Sprintf("Write(%d)", len(b)), n: n, err: err, data: bytes.Clone(sk.got)})
	switch {
	case sk.wrong != "":
		x.breach(sk.wrong)
	case wrong != "":
		x.breach(wrong)
	}
	return n, err
}

// differ returns the first difference between the implementation's
// transcript got and the reference's want, told from each side, or
// differs false.
func (c *checker) differ(got, want transcript) (g, w string, differs bool) {
	n := min(len(got.calls), len(want.calls))
	for i := range n {
		gc, wc := got.calls[i], want.calls[i]
		if gc.name != wc.name || gc.n != wc.n || !c.cfg.SameError(gc.err, wc.err) || !bytes.Equal(gc.data, wc.data) {
			return fmt.Sprintf("call %d %v", i+1, gc), fmt.Sprintf("call %d %v", i+1, wc), true
		}
	}
	switch {
	case !c.cfg.SamePanic(equiv.PanicValue(got.p), equiv.PanicValue(want.p)):
		return fmt.Sprintf("after %d calls, %s", n, panicString(got.p)), fmt.Sprintf("after %d calls, %s", n, panicString(want.p)), true
	case len(got.calls) > n:
		return fmt.Sprintf("call %d %v", n+1, got.calls[n]), fmt.Sprintf("no call %d: the stream was over", n+1), true
	case len(want.calls) > n:
		return fmt.Sprintf("no call %d", n+1), fmt.Sprintf("call %d %v", n+1, want.calls[n]), true
	case got.wrong != "":
		return "the same results, but " + got.wrong, "the same results, and the memory around p, and a Write's p, left as they were", true
	}
	return "", "", false
}

// has reports whether the implementation has the streamer fn names.
func (c *checker) has(fn string) bool {
	if fn == "MaskReader" {
		return c.impl.NewMaskReader != nil
	}
	return c.impl.NewMaskWriter != nil
}

// checkStream compares the streamed case s, each call's p placed by a,
// with the reference's (whose p are the suite's own), if the
// implementation has the streamer. A failure is minimized in its payload
// (cuts, offset and warm-up clamped to it), then in its cuts.
func (c *checker) checkStream(s streamCase, a arena) (*equiv.Counterexample, bool) {
	if !c.has(s.fn) {
		return nil, false
	}
	ce, compared := c.streamOnce(s, a)
	if ha, ok := a.(harnessArena); ce == nil && compared && ok {
		ce = c.streamAgain(s, ha)
		return ce, true
	}
	if ce == nil || len(s.payload) > shrinkLimit {
		return ce, compared
	}
	fails := func(s streamCase) bool {
		ce, _ := c.streamOnce(s, a)
		return ce != nil
	}
	small := s.with(equiv.ShrinkBytes(s.payload, func(d []byte) bool { return fails(s.with(d)) }))
	for i := len(small.cuts) - 1; i >= 0; i-- {
		try := small
		if try.cuts = slices.Delete(slices.Clone(small.cuts), i, i+1); fails(try) {
			small = try
		}
	}
	if sce, _ := c.streamOnce(small, a); sce != nil {
		return sce, true
	}
	return ce, true // the implementation is not deterministic
}

func (c *checker) streamOnce(s streamCase, a arena) (*equiv.Counterexample, bool) {
	if equiv.Excluded(c.cfg, s.input()) {
		return nil, false
	}
	want := runStream(refStreams, s, refArena{&c.refBuf, s.align}, nil)
	got := runStream(c.impl, s, a, c.cfg.MapError)
	if g, w, differs := c.differ(got, want); differs {
		return s.failure(g, w, got.p), true
	}
	return nil, true
}

// streamAgain checks s, which has just passed with each call's p placed
// by the harness, again with other contents (vary), each p at the same
// address, when equiv.Again says so, counting it.
func (c *checker) streamAgain(s streamCase, a harnessArena) *equiv.Counterexample {
	check := func(d []byte) *equiv.Counterexample {
		ce, _ := c.streamOnce(s.with(d), a)
		return ce
	}
	ce, ran := equiv.Again(c.h, s.payload, vary, check)
	if ran && c.recount != nil {
		c.recount(1)
	}
	if ce == nil {
		return nil
	}
	return c.reused(s.payload, ce, func(v []byte) *equiv.Counterexample {
		sce, _ := c.checkStream(s.with(v), a)
		return sce
	}, check)
}

// failure is the counterexample for s, on which the implementation's
// transcript, told by got, differs from the reference's, told by want.
func (s streamCase) failure(got, want string, p *equiv.Panic) *equiv.Counterexample {
	ce := &equiv.Counterexample{
		Func:       s.fn,
		Input:      bytes.Clone(s.payload),
		Args:       s.args(),
		Got:        got,
		Want:       want,
		Stack:      equiv.StackOf(p),
		FuzzTarget: "FuzzMask",
	}
	if pl := s.plan(); pl.encodable() {
		ce.FuzzArgs = []any{bytes.Clone(s.payload), keyWord(s.key), 0, encodePlan(pl)}
	}
	return ce
}
