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
	srcNested  = srcTooMany + 1
	numSources = srcNested + 1
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
	return iosource.Kind(kind).Name(at)
}

// sinkName names a writer kind acting at offset at.
func sinkName(kind, at int) string {
	names := [...]string{"takes all", "fails at %d", "EAGAIN once at %d", "short count once at %d",
		"count -1 at %d", "count len(b)+1 at %d", "takes all, writing it through a MaskWriter of its own first"}
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
// through impl's MaskReader.
func newSource(kind, at int, wire []byte, impl Impl) io.Reader {
	if kind == srcNested {
		twice := bytes.Clone(wire)
		ref.Mask(twice, nestKey, 0)
		return impl.NewMaskReader(bytes.NewReader(twice), nestKey)
	}
	return iosource.New(iosource.Kind(kind), at, wire, errBroken)
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
	caller   []byte // the Write under way's p, and what it holds
	orig     []byte
	wrong    string     // the first breach seen
	nest     MaskWriter // for sinkNested
}

// newSink returns the writer of kind acting at at, over impl's
// streamers for a nested one.
func newSink(kind, at int, impl Impl) *sink {
	s := &sink{kind: kind, at: at}
	if kind == sinkNested {
		s.nest = impl.NewMaskWriter(io.Discard, nestKey)
	}
	return s
}

func (s *sink) Write(b []byte) (int, error) {
	if s.wrong == "" && !bytes.Equal(s.caller, s.orig) {
		s.wrong = "modified p during Write"
	}
	if s.nest != nil {
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
	case sinkNegative, sinkTooMany:
		if !s.fired && fresh && off >= s.at {
			s.fired = true
			if s.kind == sinkNegative {
				return -1, nil
			}
			return len(b) + 1, nil
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

// arena places the p of each call of a streamed case.
type arena interface {
	slot(n int) []byte        // n octets for a Read
	place(data []byte) []byte // a copy of data for a Write, read-only where the system allows
	intact() bool             // whether nothing was written outside the last p
}

// bufArena places p at an alignment between canaries.
type bufArena struct {
	buf   *equiv.Buffer
	align int
}

func (a bufArena) slot(n int) []byte        { return a.buf.Slot(n, a.align) }
func (a bufArena) place(data []byte) []byte { return a.buf.Input(data, a.align) }
func (a bufArena) intact() bool             { return a.buf.Intact() }

// edgeArena places p flush against an unmapped page: an access outside it
// faults, and the fault is the call's panic.
type edgeArena struct{ at func(n int) []byte }

func (a edgeArena) slot(n int) []byte { return a.at(n) }
func (a edgeArena) place(data []byte) []byte {
	p := a.at(len(data))
	copy(p, data)
	return p
}
func (a edgeArena) intact() bool { return true }
