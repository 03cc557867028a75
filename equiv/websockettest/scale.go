package websockettest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/contractknob"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// scale checks what only large inputs and long use reach: Mask, MaskCopy
// (apart and in place) and Mask in two calls at sizes around every power
// of two from 1 KiB to 4 MiB (64 MiB at Standard; equiv.ScaleSizes), each
// with a key phase and a window of content placed just before, across and
// after the powers of two and the quarters of the input
// (equiv.ScalePoints), where the second call of the chunked masking
// starts; a MaskReader and a MaskWriter at each size, in one Read or
// Write of it after one of 0 to 3 octets (so at every key phase), then
// Reset; both after a long history of calls (equiv.History), then reused
// across many Resets; both over every (n, err) io's contract allows and
// some it forbids, in single calls of 1 octet and of 32 KiB and more; and
// every function from two goroutines released together
// (equiv.Run.Overlap). Each size is a unit of Run.Mine, the largest
// first, so that one buffer of the largest serves every size; the other
// parts run on every shard and in every sample, so that each function
// meets every mechanism in any part of the method.
//
// Masking is octet-wise, so the result of a call at scale is checked
// against the octets it must hold, out[i] = in[i] XOR key[(pos+i) & 3]
// (firstWrong), rather than against a copy the reference masked octet by
// octet; a disagreement is checked again against the reference itself,
// by the ordinary checks, which minimize it. docs/equivalence.md has the
// argument.
func (c *checker) scale(r *equiv.Run) error {
	rng := rand.New(rand.NewPCG(r.Config().Seed(), 0x5ca1e))
	// The history's calls and the I/O part's streams reach 2·ScaleMin
	// octets, whatever the sizes (equiv.History). They run first, with
	// filler of their own, so that the garbage of their transcripts is
	// collected while the heap is small (the heap may grow to twice what
	// is live before it is: 64 MiB of filler at Standard).
	small := randomBytes(rng, 2*equiv.ScaleMin+1)
	for _, part := range []func(*equiv.Run, []byte) error{c.scaleHistory, c.scaleIO} {
		if err := part(r, small); err != nil {
			return err
		}
	}
	sizes := equiv.ScaleSizes(r)
	slices.Sort(sizes)
	slices.Reverse(sizes)
	filler := randomBytes(rng, max(sizes[0], len(small))+3)
	for i, n := range sizes {
		if !r.Mine(i) {
			continue
		}
		if err := c.scaleSize(r, filler, n); err != nil {
			return err
		}
	}
	return c.scaleOverlap(r, filler)
}

// randomBytes returns n octets drawn with rng.
func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// scaleInput is one call of the scale method's one-shot functions.
type scaleInput struct {
	fn              string // "Mask", "Mask (chunked)", "MaskCopy" or "MaskCopy in place"
	key             [4]byte
	pos             int
	align, dstAlign int
	cut             int  // where the chunked masking's first call ends
	flip            bool // the payload complemented (equiv.Again's other contents)
}

// scaleFuncs are the scale method's one-shot calls, taken in turn at the
// scale points of a size.
var scaleFuncs = []string{"Mask", "MaskCopy", "Mask (chunked)", "MaskCopy in place"}

// scaleWindows are the content the scale method places at each scale
// point, over random filler: distinct markers (each output octet shows
// which input and key octet it was made of), zeros (the output is the
// key itself) and ones.
var scaleWindows = []struct {
	name string
	data []byte
}{
	{"markers", func() []byte { b := make([]byte, 8); markers(b, 0); return b }()},
	{"zeros", make([]byte, 8)},
	{"ones", bytes.Repeat([]byte{0xff}, 8)},
}

// scaleKey draws a key with no zero octet, so that an output octet left
// unmasked, or not written at all (a dst at scale holds the payload
// before the call), shows.
func scaleKey(rng *rand.Rand) [4]byte { return keyBytes(rng.Uint32() | 0x01010101) }

// scaleSize checks the one-shot functions on filler[:n], one at each of
// its scale points in turn, each with the key phase at the point that
// the point's index and n give, the second call of a chunked masking
// starting there, a window of content there, and an alignment that puts
// the input flush against a page at its end, at its start, or at
// neither, in turn (equiv.Edge); then the streamers at n.
func (c *checker) scaleSize(r *equiv.Run, filler []byte, n int) error {
	rng := rand.New(rand.NewPCG(r.Config().Seed(), uint64(n)))
	data := filler[:n]
	var saved [8]byte
	points := equiv.ScalePoints(r, rng, n, len(saved))
	if step := len(points) / len(scaleFuncs); n > maxEdgeSize && step > 1 {
		// Each call costs as much as n: about one point per function,
		// spread over the input.
		var some []int
		for j, at := range points {
			if j%step == 0 {
				some = append(some, at)
			}
		}
		points = some
	}
	for j, at := range points {
		fn := scaleFuncs[j%len(scaleFuncs)]
		if c.impl.MaskCopy == nil && fn != "Mask" && fn != "Mask (chunked)" {
			fn = "Mask"
		}
		phase := (j/len(scaleFuncs) + n) & 3
		in := scaleInput{fn: fn, key: scaleKey(rng), pos: (phase-at)&3 + 4*(j*n&0xffff), cut: at,
			align: clearOfPages(n, equiv.ScaleAlign(rng, n, j))}
		in.dstAlign = clearOfPages(n, (in.align*7+j)&63)
		w := scaleWindows[j%len(scaleWindows)]
		copy(saved[:], data[at:])
		copy(data[at:], w.data)
		r.Reach(fmt.Sprintf("scale: %s, key phase %d at a boundary", fn, phase))
		ce := c.scaleCheck(in, data)
		copy(data[at:], saved[:])
		if ce != nil {
			ce.Args += fmt.Sprintf(" (scale: %s at %d)", w.name, at)
			return r.Fail(ce)
		}
		r.Count(1)
	}
	return c.scaleStreams(r, rng, filler, n)
}

// maxEdgeSize is the largest input the scale method places flush against
// a page (equiv.Edge): 4 MiB + 63, the largest size at Quick. A buffer of
// the harness places an input flush against read-only octets in the
// middle of its mapping and against an unmapped page at its end, so that
// one input of each placement touches its own pages: the larger sizes
// of Standard and Deep (to 64 MiB) lie between canaries only, at an
// alignment that meets no page, so that each buffer holds one copy and
// the method stays within 256 MiB.
const maxEdgeSize = 4<<20 + 63

// clearOfPages returns align for an input of n octets, or, past
// maxEdgeSize, the nearest alignment at which it meets no page: neither
// 0 (a page before it) nor -n&63 (one after it).
func clearOfPages(n, align int) int {
	for n > maxEdgeSize && (align == 0 || align == -n&63) {
		align = (align + 1) & 63
	}
	return align
}

// scaleCheck checks in on data and, now and then, again with the
// complemented payload at the same address (equiv.Again).
func (c *checker) scaleCheck(in scaleInput, data []byte) *equiv.Counterexample {
	ce, compared := c.scaleOne(in, data)
	if ce != nil || !compared {
		return ce
	}
	flipped := func(v scaleInput) (scaleInput, bool) { v.flip = true; return v, len(data) > 0 }
	check := func(v scaleInput) *equiv.Counterexample { ce, _ := c.scaleOne(v, data); return ce }
	ce, ran := equiv.Again(c.h, in, flipped, check)
	if ran && c.recount != nil {
		c.recount(1)
	}
	if ce == nil {
		return nil
	}
	in.flip = true
	if c.elsewhere(func() *equiv.Counterexample { return check(in) }) != nil {
		return ce // the complemented payload fails wherever it lies: an input like any other
	}
	ce.Args += " (at the address where the same call with every octet complemented had just passed)"
	ce.FuzzTarget, ce.FuzzArgs = "", nil
	return ce
}

// scaleOne calls in.fn on data (complemented for in.flip), placed as its
// contract says, and checks the result against what masking must give
// (firstWrong). A disagreement is checked again by the ordinary checks
// (scaleFailure).
func (c *checker) scaleOne(in scaleInput, data []byte) (*equiv.Counterexample, bool) {
	if in.flip {
		flip(data)
		defer flip(data)
	}
	n := len(data)
	var got outcome
	switch in.fn {
	case "Mask", "Mask (chunked)":
		k := c.h.Call(cMask)
		defer k.End()
		bounds := []int{n}
		if in.fn == "Mask (chunked)" {
			bounds = []int{in.cut, n}
		}
		b := k.Bytes(0, data, in.align)
		if c.chunksExcluded(b, in.key, in.pos, bounds) {
			return nil, false
		}
		got = c.maskPieces(k, b, in.key, in.pos, bounds)
	default:
		k := c.h.Call(cMaskCopy)
		defer k.End()
		// dst holds the payload before the call: under a key with no
		// zero octet, an octet left unwritten differs from its masking.
		var dst, src []byte
		if in.fn == "MaskCopy" {
			dst, src = k.Prefix(0, data, in.dstAlign, n), k.Bytes(1, data, in.align)
		} else {
			dst = k.Prefix(0, data, in.align, n)
			src = dst
		}
		if equiv.Excluded(c.cfg, Input{Func: "MaskCopy", Payload: src, Dst: dst, Key: in.key, Pos: in.pos}) {
			return nil, false
		}
		got = c.callMaskCopy(k, dst, src, in.key, in.pos)
	}
	c.size(n)
	if got.p == nil && got.wrong == "" && got.next == (in.pos+n)&3 && firstWrong(got.out, data, in.key, in.pos) < 0 {
		return nil, true
	}
	return c.scaleFailure(in, data, got), true
}

// scaleFailure checks in on a copy of data by the ordinary check of its
// function, against the reference, minimizing what it finds if the input
// is under scaleShrinkLimit (each shrinking step costs as much as the
// input); if that passes (the failure needs the scale method's layout,
// another call in flight, or the implementation is not deterministic),
// it reports got against the masking data must have.
func (c *checker) scaleFailure(in scaleInput, data []byte, got outcome) *equiv.Counterexample {
	payload := bytes.Clone(data)
	once := map[string]func([]byte) (*equiv.Counterexample, bool){
		"Mask": func(d []byte) (*equiv.Counterexample, bool) { return c.maskOnce(d, in.key, in.pos, in.align) },
		"Mask (chunked)": func(d []byte) (*equiv.Counterexample, bool) {
			return c.chunkedOnce(d, in.key, in.pos, clamp([]int{in.cut}, len(d)))
		},
		"MaskCopy": func(d []byte) (*equiv.Counterexample, bool) {
			return c.maskCopyApart(d, in.key, in.pos, in.align, in.dstAlign, 0)
		},
		"MaskCopy in place": func(d []byte) (*equiv.Counterexample, bool) { return c.maskCopyInPlace(d, in.key, in.pos, in.align) },
	}[in.fn]
	if ce, _ := once(payload); ce != nil {
		if len(payload) < scaleShrinkLimit {
			return shrunk(payload, once, ce)
		}
		return ce
	}
	want := outcome{out: maskedCopy(payload, in.key, in.pos), next: (in.pos + len(payload)) & 3}
	s := site{fn: in.fn, payload: payload, key: in.key, pos: in.pos, args: fmt.Sprintf("align=%d (the scale method's layout: the ordinary check passes)", in.align)}
	switch in.fn {
	case "Mask (chunked)":
		s.plan, s.args = plan{chunks: []int{in.cut}}, fmt.Sprintf("chunks=[%d] (the scale method's layout: the ordinary check passes)", in.cut)
	case "MaskCopy in place":
		s.fn = "MaskCopy"
	}
	ce := s.failure(got, want)
	ce.FuzzTarget, ce.FuzzArgs = "", nil // no single input replays it
	return ce
}

// scaleShrinkLimit is the longest input the scale method minimizes.
const scaleShrinkLimit = 64 << 10

// firstWrong returns the first index i at which out[i] is not in[i] XOR
// key[(pos+i) & 3], or -1 if there is none (and out is as long as in; if
// not, the first index one of them lacks). It compares 8 octets at a
// time: since 8 is a multiple of 4, every word of in at an offset that is
// a multiple of 8 is masked with the same 8 key octets; the octets of
// the word that differs, and of the tail, one at a time.
func firstWrong(out, in []byte, key [4]byte, pos int) int {
	var kb [8]byte
	for j := range kb {
		kb[j] = key[(pos+j)&3]
	}
	kw := binary.LittleEndian.Uint64(kb[:])
	n := min(len(out), len(in))
	i := 0
	for ; i+32 <= n; i += 32 {
		o, x := out[i:i+32:i+32], in[i:i+32:i+32] // 32 octets a turn, no bounds checks within
		le := binary.LittleEndian
		if le.Uint64(o[0:])^le.Uint64(x[0:]) != kw || le.Uint64(o[8:])^le.Uint64(x[8:]) != kw ||
			le.Uint64(o[16:])^le.Uint64(x[16:]) != kw || le.Uint64(o[24:])^le.Uint64(x[24:]) != kw {
			break
		}
	}
	for ; i < n; i++ {
		if out[i] != in[i]^key[(pos+i)&3] {
			return i
		}
	}
	if len(out) != len(in) {
		return n
	}
	return -1
}

// maskedCopy returns in masked from pos with key.
func maskedCopy(in []byte, key [4]byte, pos int) []byte {
	out := bytes.Clone(in)
	ref.Mask(out, key, pos)
	return out
}

// flip complements every octet of b, 8 at a time.
func flip(b []byte) {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], ^binary.LittleEndian.Uint64(b[i:]))
	}
	for ; i < len(b); i++ {
		b[i] = ^b[i]
	}
}

// scaleStreams reads filler[:lead+n] as the octets on the wire through a
// MaskReader over a bytes.Reader, in a Read of lead octets (0 to 3, so
// that the next starts at every key phase over the sizes) and one of n,
// and writes it through a MaskWriter, in a Write of lead octets and one
// of n; each is then Reset, the key complemented, and 7 octets read or
// written from key octet 0 (the Reset after n octets counts at scale).
func (c *checker) scaleStreams(r *equiv.Run, rng *rand.Rand, filler []byte, n int) error {
	lead := n & 3
	payload := filler[:lead+n]
	key, align := scaleKey(rng), clearOfPages(n, rng.IntN(64))
	for _, fn := range []string{"MaskReader", "MaskWriter"} {
		s := streamCase{fn: fn, payload: payload, key: key, cuts: []int{lead}, align: align}
		if !c.has(fn) || equiv.Excluded(c.cfg, s.input()) {
			continue
		}
		r.Reach(fmt.Sprintf("scale: %s call of %s at key phase %d", map[bool]string{true: "Read", false: "Write"}[fn == "MaskReader"], sizeWord(n), lead))
		lean := leanStream{c: c, fn: fn, key: key, align: align}
		what := lean.start()
		for _, part := range [][]byte{payload[:lead], payload[lead:]} {
			if what == "" {
				what = lean.call(part)
			}
		}
		if what == "" {
			what = lean.resetAndCall(payload[:7], n >= equiv.ScaleMin)
		}
		if what != "" {
			return r.Fail(c.streamFailure(s, what))
		}
		r.Count(1)
	}
	return nil
}

// sizeWord names a size class for the domain's classes: "32 KiB and
// more" or "under 32 KiB".
func sizeWord(n int) string {
	if n >= equiv.ScaleMin {
		return "32 KiB and more"
	}
	return "under 32 KiB"
}

// streamFailure checks s, on which the scale method's check of a streamer
// found what, again by the ordinary check against the reference's
// streamer (streamOnce; the inputs at scale are not minimized), and
// returns its counterexample; if that passes, one saying what the scale
// method saw, without a fuzz form.
func (c *checker) streamFailure(s streamCase, what string) *equiv.Counterexample {
	if ce, _ := c.streamOnce(s, harnessArena{c, s.align}); ce != nil {
		return ce
	}
	ce := s.failure(what, "each call's octets masked from the stream position, as the reference's", nil)
	ce.FuzzTarget, ce.FuzzArgs = "", nil
	return ce
}

// leanStream drives one MaskReader or MaskWriter of the implementation
// at scale, each call's p placed by the checker's harness, and checks
// each call against what masking must give (firstWrong), without the
// reference: over a reader that hands out exactly the octets queued
// (queueReader, a plain reader) and a writer that takes all and checks
// them as they come (checkSink), the reference's Read returns every
// octet asked, unmasked from the stream position, with a nil error, and
// its Write returns len(p), nil, the writer holding p masked from the
// stream position. Each method describes the first call that differs, or
// returns "".
type leanStream struct {
	c     *checker
	fn    string
	key   [4]byte
	align int
	pos   int // the stream position: octets read or written since New or Reset
	calls int
	r     MaskReader
	q     queueReader
	w     MaskWriter
	sk    checkSink
}

// start makes the streamer (New).
func (l *leanStream) start() string {
	h := l.c.h
	p := equiv.Catch(func() {
		if l.fn == "MaskReader" {
			h.Note(cNewReader)
			l.r = l.c.impl.NewMaskReader(&l.q, l.key)
			return
		}
		l.sk = checkSink{key: l.key}
		h.Note(cNewWriter)
		l.w = l.c.impl.NewMaskWriter(&l.sk, l.key)
	})
	if p != nil {
		return fmt.Sprintf("New panicked: %v", p.Value)
	}
	return ""
}

// reset Resets the streamer to start over with key, and counts the
// Reset at scale if the streamer had moved ScaleMin octets or more.
func (l *leanStream) reset(key [4]byte, atScale bool) string {
	h := l.c.h
	do := func() {
		if l.fn == "MaskReader" {
			h.Note(cRReset)
			l.r.Reset(&l.q, key)
			return
		}
		h.Note(cWReset)
		l.w.Reset(&l.sk, key)
	}
	l.key, l.pos, l.sk = key, 0, checkSink{key: key}
	var p *equiv.Panic
	if atScale {
		h.Marking(equiv.MechScale, func() { p = equiv.Catch(do) })
	} else {
		p = equiv.Catch(do)
	}
	if p != nil {
		return fmt.Sprintf("Reset after %d calls panicked: %v", l.calls, p.Value)
	}
	return ""
}

// resetAndCall Resets with the key complemented and reads or writes data.
func (l *leanStream) resetAndCall(data []byte, atScale bool) string {
	if what := l.reset(keyBytes(^keyWord(l.key)), atScale); what != "" {
		return what
	}
	if what := l.call(data); what != "" {
		return fmt.Sprintf("after Reset, the key complemented: %s", what)
	}
	return ""
}

// call reads or writes data, the payload's next octets, in one call whose
// p the harness places at the stream's alignment.
func (l *leanStream) call(data []byte) string {
	defer func() { l.pos, l.calls = l.pos+len(data), l.calls+1 }()
	if l.fn == "MaskReader" {
		return l.read(data)
	}
	return l.write(data)
}

// read queues data, the octets on the wire, and makes one Read of as
// many.
func (l *leanStream) read(data []byte) string {
	k := l.c.h.Call(cRead)
	defer k.End()
	p := k.Output(0, len(data), l.align)
	l.q.next = data
	var n int
	var err error
	if pn := k.Do(func() { n, err = l.r.Read(p) }); pn != nil {
		return fmt.Sprintf("call %d Read(%d) panicked: %v", l.calls+1, len(p), pn.Value)
	}
	switch {
	case n != len(p) || err != nil:
		return fmt.Sprintf("call %d Read(%d) = %d, %v, want %d, <nil>", l.calls+1, len(p), n, err, len(p))
	case len(l.q.next) > 0:
		return fmt.Sprintf("call %d Read(%d) left %d octets of the reader's unread", l.calls+1, len(p), len(l.q.next))
	}
	if i := firstWrong(p, data, l.key, l.pos); i >= 0 {
		return fmt.Sprintf("call %d Read(%d): p[%d] = %#02x, want %#02x (stream octet %d)", l.calls+1, len(p), i, p[i], data[i]^l.key[(l.pos+i)&3], l.pos+i)
	}
	if f := k.Flaw(); f != "" {
		return fmt.Sprintf("call %d Read(%d) %s", l.calls+1, len(p), f)
	}
	return ""
}

// write makes one Write of a copy of data.
func (l *leanStream) write(data []byte) string {
	k := l.c.h.Call(cWrite)
	defer k.End()
	p := k.Bytes(0, data, l.align)
	l.sk.src, l.sk.base, l.sk.caller = data, l.pos, p
	var n int
	var err error
	pn := k.Do(func() { n, err = l.w.Write(p) })
	l.sk.caller = nil
	switch {
	case pn != nil:
		return fmt.Sprintf("call %d Write(%d) panicked: %v", l.calls+1, len(p), pn.Value)
	case n != len(p) || err != nil:
		return fmt.Sprintf("call %d Write(%d) = %d, %v, want %d, <nil>", l.calls+1, len(p), n, err, len(p))
	case l.sk.bad != "":
		return fmt.Sprintf("call %d Write(%d): %s", l.calls+1, len(p), l.sk.bad)
	case l.sk.off != l.pos+len(p):
		return fmt.Sprintf("call %d Write(%d): the writer was handed %d octets of it", l.calls+1, len(p), l.sk.off-l.pos)
	}
	if f := k.Flaw(); f != "" {
		return fmt.Sprintf("call %d Write(%d) %s", l.calls+1, len(p), f)
	}
	return ""
}

// queueReader is a plain reader of the octets queued in next: each Read
// hands out as many as p holds, with a nil error.
type queueReader struct{ next []byte }

func (q *queueReader) Read(p []byte) (int, error) {
	n := copy(p, q.next)
	q.next = q.next[n:]
	return n, nil
}

// checkSink is the writer under a MaskWriter at scale: it takes every
// octet, and checks each against the masking of src, the Write under
// way's payload, which starts at stream position base; at the first call
// of a Write it checks that the Write's p (caller) still holds src
// (io.Writer: "must not modify the slice data, even temporarily"). bad
// describes the first octet or call that was wrong.
type checkSink struct {
	key       [4]byte
	src       []byte
	base, off int
	caller    []byte
	bad       string
}

func (s *checkSink) Write(b []byte) (int, error) {
	if s.caller != nil {
		if s.bad == "" && !bytes.Equal(s.caller, s.src) {
			s.bad = "modified p during Write"
		}
		s.caller = nil
	}
	i := s.off - s.base
	switch {
	case s.bad != "":
	case i < 0 || i+len(b) > len(s.src):
		s.bad = fmt.Sprintf("the writer was handed octets %d to %d of a Write of %d", i, i+len(b), len(s.src))
	default:
		if j := firstWrong(b, s.src[i:i+len(b)], s.key, s.off); j >= 0 {
			s.bad = fmt.Sprintf("stream octet %d = %#02x, want %#02x", s.off+j, b[j], s.src[i+j]^s.key[(s.off+j)&3])
		}
	}
	s.off += len(b)
	return len(b), nil
}

// scaleHistory feeds a MaskReader and a MaskWriter each a long history of
// calls of mixed sizes (equiv.History: empty ones, single octets, 32 KiB
// and more), each checked as it returns, then calls of 1 to 8 octets and
// one past 32 KiB at whatever key phase the history left (the content
// that matters), then reuses each across 64 Resets, each to a new key and
// followed by two calls (scaleReuse). An implementation that changes its
// way after some number of calls or octets meets that point.
func (c *checker) scaleHistory(r *equiv.Run, filler []byte) error {
	rng := rand.New(rand.NewPCG(r.Config().Seed(), 0x415))
	for _, fn := range []string{"MaskReader", "MaskWriter"} {
		if !c.has(fn) || equiv.Excluded(c.cfg, Input{Func: fn, Key: keys[0], Underlying: "plain, after a history of 1200 calls"}) {
			continue
		}
		l := leanStream{c: c, fn: fn, key: scaleKey(rng), align: rng.IntN(64)}
		var what string
		c.h.Marking(equiv.MechHistory, func() {
			if what = l.history(rng, filler); what == "" {
				c.h.Marking(equiv.MechReuse, func() { what = l.reuse(rng, filler) })
			}
		})
		if what != "" {
			return r.Fail(&equiv.Counterexample{Func: fn, Args: fmt.Sprintf("key=%x over a plain %s, align=%d", l.key, map[bool]string{true: "reader", false: "writer"}[fn == "MaskReader"], l.align),
				Got: what, Want: "each call's octets masked from the stream position, as the reference's"})
		}
		r.ReachN("scale: a history of 1200 calls, then 64 Resets", int64(l.calls))
		r.Count(l.calls)
	}
	return nil
}

// history is scaleHistory's part before the Resets: it describes the
// first call that was wrong, or returns "".
func (l *leanStream) history(rng *rand.Rand, filler []byte) string {
	if what := l.start(); what != "" {
		return what
	}
	for n := range equiv.History(rng) {
		at := rng.IntN(len(filler) - n + 1)
		l.align = l.calls & 63
		if what := l.call(filler[at : at+n]); what != "" {
			return fmt.Sprintf("after a history of %d calls (%d octets): %s", l.calls, l.pos, what)
		}
	}
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, equiv.ScaleMin + 3} {
		at := rng.IntN(len(filler) - n + 1)
		if what := l.call(filler[at : at+n]); what != "" {
			return fmt.Sprintf("after a history of %d calls (%d octets): %s", l.calls, l.pos, what)
		}
	}
	return ""
}

// reuse Resets the streamer 64 times, each time to a new key, and reads
// or writes 1 to 8 octets, then 5 to 2336, after each.
func (l *leanStream) reuse(rng *rand.Rand, filler []byte) string {
	for i := range 64 {
		if what := l.reset(scaleKey(rng), l.pos >= equiv.ScaleMin); what != "" {
			return what
		}
		for _, n := range []int{i&7 + 1, i*37 + 5} {
			at := rng.IntN(len(filler) - n + 1)
			if what := l.call(filler[at : at+n]); what != "" {
				return fmt.Sprintf("after %d Resets (the last to key %x): %s", i+1, l.key, what)
			}
		}
	}
	return ""
}

// scaleIO streams payloads of 32 KiB - 1 and 32 KiB + 5 octets over every
// reader and writer of the (n, err) family that does not hand out one
// octet at a time (each kind at two offsets, one drawn and one near the
// middle), in a single Read or Write of the whole and in one of 1 octet
// and one of the rest, compared with the reference's transcript
// (checkStream). The calls count under equiv.MechIOEdges; under the
// NoIOEdges knob every reader and writer is a plain one.
func (c *checker) scaleIO(r *equiv.Run, filler []byte) error {
	rng := rand.New(rand.NewPCG(r.Config().Seed(), 0x10))
	count := tally(r)
	var err error
	run := func() {
		for _, n := range []int{equiv.ScaleMin - 1, equiv.ScaleMin + 5} {
			if err = c.scaleIOSize(count, rng, filler[:n]); err != nil {
				return
			}
		}
	}
	if contractknob.NoIOEdges.Load() {
		run()
	} else {
		c.h.Marking(equiv.MechIOEdges, run)
	}
	return err
}

// scaleIOSources and scaleIOSinks are the readers and writers of scaleIO:
// every kind but the reader of one octet at a time, which makes a Read
// per octet.
var (
	scaleIOSources = []int{srcPlain, srcHalf, srcDataErr, srcTimeout, srcFails, srcZero, srcNegative, srcTooMany, srcNested, srcDataTimeout}
	scaleIOSinks   = []int{sinkAll, sinkFails, sinkAgain, sinkShort, sinkNegative, sinkTooMany, sinkNested, sinkFullErr, sinkZero}
)

// scaleIOSize is scaleIO's streams of payload.
func (c *checker) scaleIOSize(count func(*equiv.Counterexample, bool) error, rng *rand.Rand, payload []byte) error {
	n := len(payload)
	if contractknob.NoScale.Load() && n >= equiv.ScaleMin {
		return nil
	}
	cases := func(fn string, kinds []int) error {
		for _, kind := range kinds {
			for _, at := range []int{rng.IntN(n + 1), n/2 | 1} {
				for _, cuts := range [][]int{nil, {1}} {
					s := streamCase{fn: fn, payload: payload, key: scaleKey(rng), cuts: cuts, kind: kind, at: at, align: rng.IntN(64)}
					if err := count(c.checkStream(s, harnessArena{c, s.align})); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	if err := cases("MaskReader", scaleIOSources); err != nil {
		return err
	}
	return cases("MaskWriter", scaleIOSinks)
}

// scaleOverlap calls every function from two goroutines released together
// (equiv.Run.Overlap), on inputs of up to 1 MiB of filler (each lane's and
// round's its own, odd and even lengths by turns, a key of each lane's
// and round's own): before each call, each lane waits for the other
// (equiv.Harness.Before), its input placed, so that the two calls start
// together and every function runs while another call of it is in
// flight.
func (c *checker) scaleOverlap(r *equiv.Run, filler []byte) error {
	n := min(len(filler)/2, 1<<20)
	var lanes []*checker
	err := r.Overlap(equiv.Pick(r, 16, 32, 128), func(cfg *equiv.Config) func(lane, round int, wait func()) (int, error) {
		lc := newChecker(c.impl, cfg)
		lanes = append(lanes, lc)
		return func(lane, round int, wait func()) (int, error) {
			at := (lane*n/2 + round*4099) % (len(filler) - n + 1)
			ce, k := lc.overlapRound(filler[at:at+n-round%2], lane, round, wait)
			if ce != nil {
				return k, ce
			}
			return k, nil
		}
	})
	for _, lc := range lanes {
		lc.release()
	}
	if err == nil {
		return nil
	}
	if ce, ok := err.(*equiv.Counterexample); ok {
		return r.Fail(ce)
	}
	return err
}

// overlapRound is one round of one lane: each one-shot function on data,
// then a MaskReader and a MaskWriter each made, fed 1 to 3 octets of data
// and the rest in one call, Reset and fed 7 octets; every call of the
// implementation waits for the other lane's. It returns the first
// counterexample and how many inputs it compared.
func (c *checker) overlapRound(data []byte, lane, round int, wait func()) (*equiv.Counterexample, int) {
	rng := rand.New(rand.NewPCG(uint64(lane), uint64(round)))
	compared := 0
	together := func(f func() *equiv.Counterexample) *equiv.Counterexample {
		c.h.Before(wait)
		ce := f()
		if c.h.Before(nil) {
			wait() // no call ran: the other lane must not wait for this one
		}
		return ce
	}
	for _, fn := range scaleFuncs {
		if c.impl.MaskCopy == nil && fn != "Mask" && fn != "Mask (chunked)" {
			continue
		}
		// The key phase round/2: lengths alternate odd and even by round,
		// so each meets every phase (with pos = round, 1 MiB met only
		// phases 0 and 2).
		in := scaleInput{fn: fn, key: scaleKey(rng), pos: round / 2, align: rng.IntN(64), dstAlign: rng.IntN(64), cut: rng.IntN(len(data))}
		if ce := together(func() *equiv.Counterexample { ce, _ := c.scaleOne(in, data); return ce }); ce != nil {
			return ce, compared
		}
		compared++
	}
	for _, fn := range []string{"MaskReader", "MaskWriter"} {
		if !c.has(fn) {
			continue
		}
		l := leanStream{c: c, fn: fn, key: scaleKey(rng), align: rng.IntN(64)}
		lead := 1 + round%3 // the long call at a key phase other than 0
		s := streamCase{fn: fn, payload: data, key: l.key, cuts: []int{lead}, align: l.align}
		steps := []func() string{l.start, func() string { return l.call(data[:lead]) },
			func() string { return l.call(data[lead:]) }, func() string { return l.resetAndCall(data[:7], true) }}
		excluded := equiv.Excluded(c.cfg, s.input())
		var what string
		for _, step := range steps {
			if what != "" || excluded {
				step = func() string { return "" } // the other lane's wait is still met
			}
			if w := stepTogether(c, wait, step); w != "" {
				what = w
			}
		}
		if excluded {
			continue
		}
		if what != "" {
			return c.streamFailure(s, what), compared
		}
		compared++
	}
	return nil, compared
}

// stepTogether runs step, one call of a stream, once the other lane has
// reached its own (equiv.Harness.Before).
func stepTogether(c *checker, wait func(), step func() string) string {
	c.h.Before(wait)
	what := step()
	if c.h.Before(nil) {
		wait()
	}
	return what
}
