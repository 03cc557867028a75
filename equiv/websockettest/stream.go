package websockettest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/internal/iosource"
	"github.com/equivcheck/equivcheck/internal/contractknob"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// MaskReader is a streaming unmasker as an implementation offers it: an
// io.Reader that unmasks what it reads from another, carrying the key
// position from one Read to the next, and Reset to start the next
// payload at key octet 0. reference/websocket's *MaskReader and gobwas/ws's
// *wsutil.CipherReader have this method set.
type MaskReader interface {
	io.Reader
	Reset(r io.Reader, key [4]byte)
}

// MaskWriter is a streaming masker as an implementation offers it: an
// io.Writer that masks what it is given onto another, carrying the key
// position from one Write to the next, and Reset to start the next
// payload at key octet 0. reference/websocket's *MaskWriter and gobwas/ws's
// *wsutil.CipherWriter have this method set.
type MaskWriter interface {
	io.Writer
	Reset(w io.Writer, key [4]byte)
}

// The errors of the suite's failing readers and writers: one after which
// the stream is over (a broken pipe), and one after which it goes on (a
// non-blocking socket's EAGAIN). The readers also use iotest.ErrTimeout.
var (
	errBroken = errors.New("websockettest: broken pipe")
	errAgain  = errors.New("websockettest: resource temporarily unavailable")
)

// Reader kinds: how the reader under a MaskReader hands out the wire
// octets. The first five are testing/iotest's behaviours and act alone;
// the others act once, at the stream offset a case names. The first nine
// are iosource's kinds, in its order.
const (
	srcPlain    = int(iosource.Plain)    // bytes.Reader: as much as p holds, then 0, io.EOF
	srcOneByte  = int(iosource.OneByte)  // iotest.OneByteReader
	srcHalf     = int(iosource.Half)     // iotest.HalfReader
	srcDataErr  = int(iosource.DataErr)  // iotest.DataErrReader: io.EOF with the last octets
	srcTimeout  = int(iosource.Timeout)  // iotest.TimeoutReader: 0, ErrTimeout on the second Read
	srcFails    = int(iosource.Fails)    // the octets up to the offset, the last with errBroken; then 0, errBroken
	srcZero     = int(iosource.Zero)     // 0, nil once, from the first Read at or past the offset
	srcNegative = int(iosource.Negative) // -1, nil once, likewise
	srcTooMany  = int(iosource.TooMany)  // fills p and returns len(p)+1, nil once, likewise
	// srcNested reads the wire through another MaskReader of the same
	// implementation (over the wire masked again with nestKey), so that
	// each Read of the streamer under test runs inside another's call;
	// like the first five, it acts alone.
	srcNested = srcTooMany + 1
	// srcDataTimeout hands out the octets up to the offset with
	// os.ErrDeadlineExceeded, once, from the first Read that reaches it,
	// and goes on (iosource.DataTimeout): data with an error the stream
	// survives.
	srcDataTimeout = srcNested + 1
	numSources     = srcDataTimeout + 1
)

// Writer kinds: how the writer under a MaskWriter takes the masked octets.
// All but the first act at a stream offset (the last four once); the counts
// are invalid on the first call a Write makes (so that they do not depend on
// how an implementation cuts a Write into calls, which the suite leaves free).
const (
	sinkAll      = iota // takes everything
	sinkFails           // takes octets up to the offset, then errBroken for good
	sinkAgain           // the call reaching the offset takes what is before it and returns errAgain
	sinkShort           // likewise, with a nil error: a short write io.Writer forbids
	sinkNegative        // -1, nil from the first call of the first Write starting at or past the offset
	sinkTooMany         // len(b)+1, nil, likewise, taking nothing
	// sinkNested takes everything, and first writes each call's octets
	// through another MaskWriter of the same implementation (into a
	// buffer of its own, with nestKey), so that the streamer under test
	// is called again from inside its own Write; a streamer that masks
	// into package-level scratch sees its octets change under it.
	sinkNested
	// sinkFullErr: the call that completes the first Write ending at or
	// past the offset takes all it is given and returns len(b),
	// errAgain (io.Writer allows an error with a full count), once; on
	// the Write's last call, so that what the MaskWriter returns, all of
	// p with the error, does not depend on how it cuts p into calls.
	sinkFullErr
	// sinkZero: 0, nil, taking nothing, from the first call of the first
	// Write starting at or past the offset (a short count with a nil
	// error, which io.Writer forbids); once.
	sinkZero
	numSinks
)

// nestKey is the key of the nested streamers.
var nestKey = [4]byte{0x3c, 0xa5, 0x0f, 0x96}

// plainSources and plainSinks are the kinds that act alone: the ones
// streamed in every split.
var (
	plainSources = []int{srcPlain, srcOneByte, srcHalf, srcDataErr, srcTimeout, srcNested}
	plainSinks   = []int{sinkAll, sinkNested}
)

// sourceName names a reader kind acting at offset at, for messages and
// Input.Underlying.
func sourceName(kind, at int) string {
	if kind == srcNested {
		return "a MaskReader of its own"
	}
	return sourceKind(kind).Name(at)
}

// sourceKind is iosource's kind for reader kind, which is not srcNested.
func sourceKind(kind int) iosource.Kind {
	if kind == srcDataTimeout {
		return iosource.DataTimeout
	}
	return iosource.Kind(kind)
}

// plainKind is the kind a reader of kind is under the NoIOEdges knob of
// internal/contractknob: a bytes.Reader, unless it is nested (another
// mechanism). The scale method and TestMechanisms turn the (n, err)
// family off with it.
func plainKind(kind int) int {
	if kind != srcNested && contractknob.NoIOEdges.Load() {
		return srcPlain
	}
	return kind
}

// plainSink is plainKind for a writer kind.
func plainSink(kind int) int {
	if kind != sinkNested && contractknob.NoIOEdges.Load() {
		return sinkAll
	}
	return kind
}

// sinkName names a writer kind acting at offset at.
func sinkName(kind, at int) string {
	names := [...]string{"takes all", "fails at %d", "EAGAIN once at %d", "short count once at %d",
		"count -1 at %d", "count len(b)+1 at %d", "takes all, writing it through a MaskWriter of its own first",
		"takes all with EAGAIN at the end of a Write once at %d", "short count 0 at %d"}
	if kind == sinkAll || kind == sinkNested {
		return names[kind]
	}
	return fmt.Sprintf(names[kind], at)
}

// breaksCountContract reports whether the reader or writer named
// underlying (as sourceName or sinkName names it) returns a count that
// io.Reader or io.Writer forbids: -1, len(p)+1, or, for a writer, a short
// count with a nil error.
func breaksCountContract(underlying string) bool {
	return strings.HasPrefix(underlying, "count ") || strings.HasPrefix(underlying, "short count ")
}

// newSource returns a reader of kind over wire; a nested one reads it
// through impl's MaskReader, whose calls h notes (h is nil for the
// reference's).
func newSource(kind, at int, wire []byte, impl Impl, h *equiv.Harness) io.Reader {
	if kind == srcNested {
		twice := bytes.Clone(wire)
		ref.Mask(twice, nestKey, 0)
		if h == nil {
			return impl.NewMaskReader(bytes.NewReader(twice), nestKey)
		}
		h.Note(cNewReader)
		return notedReader(h, impl.NewMaskReader(bytes.NewReader(twice), nestKey))
	}
	return iosource.New(sourceKind(plainKind(kind)), at, wire, errBroken)
}

// sink is the writer under a MaskWriter: it keeps what it takes, and
// checks at every call that the caller's buffer of the Write under way is
// untouched (io.Writer: "Write must not modify the slice data, even
// temporarily"). A nested sink first writes what it is given through
// nest, a MaskWriter of the implementation's own.
type sink struct {
	kind, at int
	got      []byte // the octets taken
	fired    bool
	fresh    bool   // no call yet in the Write under way (set by the caller)
	writeEnd int    // where the Write under way ends in the stream, if all is taken
	caller   []byte // the Write under way's p, and what it holds
	orig     []byte
	wrong    string         // the first breach seen
	nest     MaskWriter     // for sinkNested
	h        *equiv.Harness // notes nest's calls, or nil
}

// newSink returns the writer of kind acting at at, over impl's
// streamers for a nested one, whose calls h notes (h is nil for the
// reference's).
func newSink(kind, at int, impl Impl, h *equiv.Harness) *sink {
	s := &sink{kind: plainSink(kind), at: at, h: h}
	if kind == sinkNested {
		if h != nil {
			h.Note(cNewWriter)
		}
		s.nest = impl.NewMaskWriter(io.Discard, nestKey)
	}
	return s
}

func (s *sink) Write(b []byte) (int, error) {
	if s.wrong == "" && !bytes.Equal(s.caller, s.orig) {
		s.wrong = "modified p during Write"
	}
	if s.nest != nil {
		if s.h != nil {
			s.h.Note(cWrite)
		}
		s.nest.Write(bytes.Clone(b))
	}
	fresh := s.fresh
	s.fresh = false
	off, take := len(s.got), len(b)
	var err error
	switch s.kind {
	case sinkFails:
		if off+len(b) > s.at {
			take, err = max(0, s.at-off), errBroken
		}
	case sinkAgain, sinkShort:
		if !s.fired && off <= s.at && s.at < off+len(b) {
			s.fired, take = true, s.at-off
			if s.kind == sinkAgain {
				err = errAgain
			}
		}
	case sinkNegative, sinkTooMany, sinkZero:
		if !s.fired && fresh && off >= s.at {
			s.fired = true
			switch s.kind {
			case sinkNegative:
				return -1, nil
			case sinkTooMany:
				return len(b) + 1, nil
			}
			return 0, nil
		}
	case sinkFullErr:
		if fresh {
			s.writeEnd = off + len(s.orig)
		}
		if end := off + len(b); !s.fired && end == s.writeEnd && end >= s.at {
			s.fired, err = true, errAgain
		}
	}
	s.got = append(s.got, b[:take]...)
	return take, err
}

// streamCase is one streamed input: payload written through a MaskWriter,
// or read (as the octets on the wire) through a MaskReader, in calls
// ending at each cut and then at len(payload), over an underlying reader
// or writer of kind acting at offset at. If warm > 0, the streamer first
// reads or writes payload[:warm] in one call, under the same key or its
// complement, and is then Reset for the case proper: so both New and
// Reset are checked.
type streamCase struct {
	fn       string // "MaskReader" or "MaskWriter"
	payload  []byte
	key      [4]byte
	cuts     []int // sorted, each in 0..len(payload)
	kind     int   // srcPlain.. or sinkAll..
	at       int   // 0..len(payload)
	warm     int   // 0..len(payload)
	warmSame bool  // the warm-up's key is key (else ^key)
	// warmHere makes the warm-up go through the case's own underlying
	// reader or writer (its wire: the warm-up's octets, then the
	// payload's), which Reset is then handed again: a streamer must
	// start over when Reset with the reader or writer it already has.
	warmHere bool
	align    int // each call's p starts align octets past a 64-byte boundary
}

// warmKey is the key of the warm-up payload.
func (s streamCase) warmKey() [4]byte {
	if s.warmSame {
		return s.key
	}
	return keyBytes(^keyWord(s.key))
}

// with returns s with payload d, its cuts, offset and warm-up clamped to
// it (to minimize).
func (s streamCase) with(d []byte) streamCase {
	s.payload, s.cuts = d, clamp(s.cuts, len(d))
	s.at, s.warm = min(s.at, len(d)), min(s.warm, len(d))
	return s
}

// ioEdge reports whether the case's reader or writer returns some (n,
// err) of io's contract beyond a plain one's (equiv.MechIOEdges): short
// counts, errors with or without data, invalid counts. Under the
// NoIOEdges knob none does.
func (s streamCase) ioEdge() bool {
	if s.fn == "MaskReader" {
		k := plainKind(s.kind)
		return k != srcPlain && k != srcNested
	}
	k := plainSink(s.kind)
	return k != sinkAll && k != sinkNested
}

// underlying names the case's underlying reader or writer.
func (s streamCase) underlying() string {
	if s.fn == "MaskReader" {
		return sourceName(s.kind, s.at)
	}
	return sinkName(s.kind, s.at)
}

// input is the case as an Exclude function sees it.
func (s streamCase) input() Input {
	return Input{Func: s.fn, Payload: s.payload, Key: s.key, Splits: s.cuts, Underlying: s.underlying()}
}

// args gives the case's coordinates for a counterexample.
func (s streamCase) args() string {
	a := fmt.Sprintf("key=%x over %q calls ending at %v", s.key, s.underlying(), append(slices.Clone(s.cuts), len(s.payload)))
	if s.warm > 0 {
		a += fmt.Sprintf(", after %d octets under key %x and Reset", s.warm, s.warmKey())
		if s.warmHere {
			a += " to the same underlying stream"
		}
	}
	return a + fmt.Sprintf(" align=%d", s.align)
}

// plan is the FuzzMask plan that replays the case.
func (s streamCase) plan() plan {
	p := plan{align: s.align, chunks: s.cuts, at: s.at, warm: s.warm, warmSame: s.warmSame, warmHere: s.warmHere}
	if s.fn == "MaskReader" {
		p.source = s.kind
	} else {
		p.sink = s.kind
	}
	return p
}

// callEnds returns where each call of the case ends: the cuts, then
// len(payload).
func (s streamCase) callEnds() []int { return append(slices.Clone(s.cuts), len(s.payload)) }

// everyN returns the cuts of calls of n octets over length: n, 2n, ….
func everyN(n, length int) []int {
	var cuts []int
	for c := n; c < length; c += n {
		cuts = append(cuts, c)
	}
	return cuts
}

// arena places the p of each call of a streamed case and makes the call.
type arena interface {
	// call places p, n canary octets for a Read (c is cRead) or a
	// copy of data for a Write, runs f(p), the call of the function c
	// declares, and judges p's memory after it: it returns the panic f
	// raised, if any, and what f did wrong ("wrote outside p", "modified
	// p"), or "".
	call(c *equiv.Contract, data []byte, n int, f func(p []byte)) (*equiv.Panic, string)
	// harness is the harness that makes the calls, or nil for the
	// reference's arena, whose calls nothing counts.
	harness() *equiv.Harness
}

// harnessArena places p as the contract of the call says, at an
// alignment, with the checker's harness (equiv.Harness): between
// canaries, with spare capacity, on read-only pages for a Write, flush
// against a page where the alignment allows; p is poisoned once the call
// has returned.
type harnessArena struct {
	c     *checker
	align int
}

func (a harnessArena) call(c *equiv.Contract, data []byte, n int, f func(p []byte)) (*equiv.Panic, string) {
	k := a.c.h.Call(c)
	defer k.End()
	var p []byte
	if c == cRead {
		p = k.Output(0, n, a.align)
	} else {
		p = k.Bytes(0, data, a.align)
	}
	if pn := k.Do(func() { f(p) }); pn != nil {
		return pn, ""
	}
	return nil, k.Flaw()
}

func (a harnessArena) harness() *equiv.Harness { return a.c.h }

// refArena places the reference's p at an alignment between canaries,
// as the implementation's are placed, without judging it.
type refArena struct {
	buf   *equiv.Buffer
	align int
}

func (a refArena) call(_ *equiv.Contract, data []byte, n int, f func(p []byte)) (*equiv.Panic, string) {
	p := a.buf.Slot(n, a.align)
	copy(p, data)
	f(p)
	return nil, ""
}

func (a refArena) harness() *equiv.Harness { return nil }

// edgeArena places p flush against an unmapped page: an access outside it
// faults, and the fault is the call's panic.
type edgeArena struct {
	c  *checker
	at func(n int) []byte
}

func (a edgeArena) call(c *equiv.Contract, data []byte, n int, f func(p []byte)) (*equiv.Panic, string) {
	k := a.c.h.Call(c)
	defer k.End()
	k.Mark(equiv.MechGuard)
	p := a.at(n)
	copy(p, data)
	pn := k.Do(func() { f(p) })
	wrong := ""
	if pn == nil && c == cWrite && !bytes.Equal(p, data) {
		wrong = "modified p"
	}
	equiv.PoisonBytes(p)
	return pn, wrong
}

func (a edgeArena) harness() *equiv.Harness { return a.c.h }

// notedReader returns r, a reader of the implementation's, with each
// Read noted as one of MaskReader.Read's calls (equiv.Harness.Note), for
// calls the suite does not make itself (testing/iotest.TestReader's, a
// nested reader's); its Seek and ReadAt are r's, if it has them.
func notedReader(h *equiv.Harness, r io.Reader) io.Reader {
	n := noted{h: h, r: r}
	sk, seeks := r.(io.Seeker)
	ra, readsAt := r.(io.ReaderAt)
	switch {
	case seeks && readsAt:
		return struct {
			noted
			io.Seeker
			io.ReaderAt
		}{n, sk, ra}
	case seeks:
		return struct {
			noted
			io.Seeker
		}{n, sk}
	case readsAt:
		return struct {
			noted
			io.ReaderAt
		}{n, ra}
	}
	return n
}

// noted is the Read of notedReader.
type noted struct {
	h *equiv.Harness
	r io.Reader
}

func (n noted) Read(p []byte) (int, error) {
	n.h.Note(cRead)
	return n.r.Read(p)
}
