package websockettest

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// checker checks one implementation under one run's configuration. Its
// scratch buffers make it single-goroutine: every method run (and every
// CheckInput) makes its own.
//
// Each check compares one input and returns the minimized counterexample,
// if the implementation disagreed, and whether it compared anything (a
// call out of scope, see Exclude, or a nil MaskCopy, is not compared);
// the methods count what was compared.
type checker struct {
	impl     Impl
	cfg      *equiv.Config
	src, dst equiv.Buffer
	refBuf   equiv.Buffer // the p of the reference's streamers
	// run, if not nil, is the method run whose domain size and lens
	// record (see domain.go).
	run  *equiv.Run
	lens [len(lenClasses)]int64
}

func newChecker(impl Impl, cfg *equiv.Config) *checker {
	return &checker{impl: impl, cfg: cfg}
}

// release gives the checker's buffers back (equiv.Buffer.Release).
func (c *checker) release() {
	c.src.Release()
	c.dst.Release()
	c.refBuf.Release()
}

// outcome is what one call of Mask or MaskCopy did: the masked octets and
// the returned position, or the panic; and what else it did wrong.
type outcome struct {
	out   []byte
	next  int
	p     *equiv.Panic
	wrong string // such as "wrote outside b"
}

// String renders o, its octets in full up to 256 of them; longer ones
// from the 32nd octet before at on (see equiv.HexAt).
func (o outcome) String(at int) string {
	switch {
	case o.p != nil:
		return fmt.Sprintf("panic(%v)", o.p.Value)
	case o.wrong != "":
		return fmt.Sprintf("%s, next %d, but %s", equiv.HexAt(o.out, at), o.next, o.wrong)
	}
	return fmt.Sprintf("%s, next %d", equiv.HexAt(o.out, at), o.next)
}

// firstDiff returns the first offset at which a and b differ, or the
// shorter length if one is a prefix of the other.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// mask calls f(b, key, pos), recovering its panic.
func mask(f func([]byte, [4]byte, int) int, b []byte, key [4]byte, pos int) outcome {
	o := outcome{out: b}
	o.p = equiv.Catch(func() { o.next = f(b, key, pos) })
	return o
}

// maskCopy calls f(dst, src, key, pos), recovering its panic.
func maskCopy(f func(dst, src []byte, key [4]byte, pos int) int, dst, src []byte, key [4]byte, pos int) outcome {
	o := outcome{out: dst[:min(len(dst), len(src))]}
	o.p = equiv.Catch(func() { o.next = f(dst, src, key, pos) })
	return o
}

// refMask is the reference's outcome of masking a copy of payload.
func refMask(payload []byte, key [4]byte, pos int) outcome {
	return mask(ref.Mask, bytes.Clone(payload), key, pos)
}

// refMaskCopy is the reference's outcome of MaskCopy from a copy of
// payload into a fresh destination, or in place.
func refMaskCopy(payload []byte, key [4]byte, pos int, inPlace bool) outcome {
	src := bytes.Clone(payload)
	dst := src
	if !inPlace {
		dst = make([]byte, len(src))
	}
	return maskCopy(ref.MaskCopy, dst, src, key, pos)
}

// refMaskCopyInto is the reference's outcome of MaskCopy from a copy of
// payload into a fresh destination of dstLen octets.
func refMaskCopyInto(payload []byte, key [4]byte, pos, dstLen int) outcome {
	return maskCopy(ref.MaskCopy, make([]byte, dstLen), bytes.Clone(payload), key, pos)
}

// agree reports whether the implementation's outcome got agrees with the
// reference's want: the same panic (as the configuration compares panics),
// or no panic, the same octets and position, and nothing else wrong.
func (c *checker) agree(got, want outcome) bool {
	if !c.cfg.SamePanic(equiv.PanicValue(got.p), equiv.PanicValue(want.p)) {
		return false
	}
	return got.p != nil || (got.next == want.next && bytes.Equal(got.out, want.out) && got.wrong == "")
}

// site is where a check called the implementation: the function, the
// payload before the call, key and pos, the plan that replays it through
// FuzzMask and the other coordinates for the message.
type site struct {
	fn      string // "Mask", "Mask (chunked)" or "MaskCopy"
	payload []byte
	key     [4]byte
	pos     int
	plan    plan
	args    string
}

// failure is the counterexample for a call at s whose outcome got
// disagrees with the reference's want.
func (s site) failure(got, want outcome) *equiv.Counterexample {
	at := firstDiff(got.out, want.out)
	ce := &equiv.Counterexample{
		Func:       s.fn,
		Input:      bytes.Clone(s.payload),
		Args:       fmt.Sprintf("key=%x pos=%d %s", s.key, s.pos, s.args),
		Got:        got.String(at),
		Want:       want.String(at),
		Stack:      equiv.StackOf(got.p),
		FuzzTarget: "FuzzMask",
	}
	if s.plan.encodable() {
		ce.FuzzArgs = []any{bytes.Clone(s.payload), keyWord(s.key), s.pos, encodePlan(s.plan)}
	}
	return ce
}

// minimized runs the check once on payload and, if it fails, on the
// smallest payload equiv.ShrinkBytes finds that still fails, returning
// that one's counterexample.
//
// An input over shrinkLimit is reported as found: each shrinking step
// would cost as much as the input, and the classes that long (len>=4Mi)
// hold only bugs that need the length.
func minimized(payload []byte, once func([]byte) (*equiv.Counterexample, bool)) (*equiv.Counterexample, bool) {
	ce, compared := once(payload)
	if ce == nil || len(payload) > shrinkLimit {
		return ce, compared
	}
	small := equiv.ShrinkBytes(payload, func(d []byte) bool {
		ce, _ := once(d)
		return ce != nil
	})
	if sce, _ := once(small); sce != nil {
		return sce, true
	}
	return ce, true // the implementation is not deterministic
}

// shrinkLimit is the longest input minimized.
const shrinkLimit = 1 << 20

// checkBoth checks Mask with the payload at align and MaskCopy from there
// to dstAlign: one input, compared if either function was called.
func (c *checker) checkBoth(payload []byte, key [4]byte, pos, align, dstAlign int) (*equiv.Counterexample, bool) {
	ce, m := c.checkMask(payload, key, pos, align)
	if ce != nil {
		return ce, true
	}
	ce, mc := c.checkMaskCopy(payload, key, pos, align, dstAlign)
	return ce, m || mc
}

// checkInput checks one input of FuzzMask: Mask at the plan's alignment,
// Mask in the plan's chunks, MaskCopy between the plan's alignments (one
// comparison, if any was made); then the payload read through a
// MaskReader and written through a MaskWriter, in calls ending at the
// plan's chunks, over the plan's underlying reader and writer (one
// comparison each). It returns the first counterexample and the number
// of comparisons.
func (c *checker) checkInput(payload []byte, k uint32, pos int, planBytes []byte) (*equiv.Counterexample, int) {
	key := keyBytes(k)
	p := decodePlan(planBytes, len(payload))
	ce, both := c.checkBoth(payload, key, pos, p.align, p.dstAlign)
	if ce != nil {
		return ce, 1
	}
	ce, chunked := c.checkChunked(payload, key, pos, p.chunks)
	if ce != nil {
		return ce, 1
	}
	ce, shaped := c.checkCopyShape(payload, key, pos, p)
	if ce != nil {
		return ce, 1
	}
	compared := 0
	if both || chunked || shaped {
		compared = 1
	}
	a := bufArena{&c.src, p.align}
	for _, s := range []streamCase{
		{fn: "MaskReader", payload: payload, key: key, cuts: p.chunks, kind: p.source, at: p.at, warm: p.warm, warmSame: p.warmSame, warmHere: p.warmHere, align: p.align},
		{fn: "MaskWriter", payload: payload, key: key, cuts: p.chunks, kind: p.sink, at: p.at, warm: p.warm, warmSame: p.warmSame, warmHere: p.warmHere, align: p.align},
	} {
		ce, ok := c.checkStream(s, a)
		if ok {
			compared++
		}
		if ce != nil {
			return ce, compared
		}
	}
	return nil, compared
}

// checkCopyShape checks MaskCopy in the plan's shape beyond checkBoth's:
// into a longer dst, or overlapping src; it compares nothing for a plan
// without one.
func (c *checker) checkCopyShape(payload []byte, key [4]byte, pos int, p plan) (*equiv.Counterexample, bool) {
	switch {
	case c.impl.MaskCopy == nil:
		return nil, false
	case p.overlaps:
		return c.checkOverlap(payload, key, pos, p.overlap, p.dstSlack)
	case p.dstSlack != 0:
		return minimized(payload, func(d []byte) (*equiv.Counterexample, bool) {
			return c.maskCopyApart(d, key, pos, p.align, p.dstAlign, p.dstSlack)
		})
	}
	return nil, false
}

// checkMask compares Mask(payload, key, pos) with the payload placed at
// align between canaries: the masked octets, the returned position, the
// canaries.
func (c *checker) checkMask(payload []byte, key [4]byte, pos, align int) (*equiv.Counterexample, bool) {
	return minimized(payload, func(d []byte) (*equiv.Counterexample, bool) {
		b := c.src.Place(d, align)
		if equiv.Excluded(c.cfg, Input{Func: "Mask", Payload: b, Key: key, Pos: pos}) {
			return nil, false
		}
		c.size(len(d))
		want := refMask(d, key, pos)
		got := mask(c.impl.Mask, b, key, pos)
		if !c.src.Intact() {
			got.wrong = "wrote outside b"
		}
		if c.agree(got, want) {
			return nil, true
		}
		s := site{fn: "Mask", payload: d, key: key, pos: pos, plan: plan{align: align}, args: fmt.Sprintf("align=%d", align)}
		return s.failure(got, want), true
	})
}

// checkMaskCopy compares MaskCopy from the payload at align into a
// separate destination at dstAlign (src untouched, nothing written outside
// dst[:len(src)]), then in place (dst and src the same slice), if the
// implementation has MaskCopy.
func (c *checker) checkMaskCopy(payload []byte, key [4]byte, pos, align, dstAlign int) (*equiv.Counterexample, bool) {
	if c.impl.MaskCopy == nil {
		return nil, false
	}
	ce, apart := minimized(payload, func(d []byte) (*equiv.Counterexample, bool) {
		return c.maskCopyApart(d, key, pos, align, dstAlign, 0)
	})
	if ce != nil {
		return ce, true
	}
	ce, inPlace := minimized(payload, func(d []byte) (*equiv.Counterexample, bool) {
		return c.maskCopyInPlace(d, key, pos, align)
	})
	return ce, apart || inPlace
}

// maskCopyApart compares MaskCopy from the payload at align (read-only)
// into a separate dst at dstAlign, slack octets longer than src (filled
// with markers that must stay), or -slack octets too short (a panic).
func (c *checker) maskCopyApart(payload []byte, key [4]byte, pos, align, dstAlign, slack int) (*equiv.Counterexample, bool) {
	if len(payload)+slack < 0 {
		return nil, false
	}
	src := c.src.Input(payload, align)
	dst := c.dst.Slot(len(payload)+slack, dstAlign)
	if slack > 0 {
		markers(dst[len(payload):], 11)
	}
	if equiv.Excluded(c.cfg, Input{Func: "MaskCopy", Payload: src, Dst: dst, Key: key, Pos: pos}) {
		return nil, false
	}
	c.size(len(payload))
	want := refMaskCopyInto(payload, key, pos, len(dst))
	got := maskCopy(c.impl.MaskCopy, dst, src, key, pos)
	switch {
	case !bytes.Equal(src, payload):
		got.wrong = "modified src"
	case !c.src.Intact() || !c.dst.Intact() || (slack > 0 && !sameTail(dst, len(payload))):
		got.wrong = "wrote outside dst[:len(src)]"
	}
	if c.agree(got, want) {
		return nil, true
	}
	s := site{fn: "MaskCopy", payload: payload, key: key, pos: pos, plan: plan{align: align, dstAlign: dstAlign, dstSlack: slack},
		args: fmt.Sprintf("align=%d dstAlign=%d len(dst)=len(src)+%d", align, dstAlign, slack)}
	return s.failure(got, want), true
}

func (c *checker) maskCopyInPlace(payload []byte, key [4]byte, pos, align int) (*equiv.Counterexample, bool) {
	b := c.src.Place(payload, align)
	if equiv.Excluded(c.cfg, Input{Func: "MaskCopy", Payload: b, Dst: b, Key: key, Pos: pos}) {
		return nil, false
	}
	c.size(len(payload))
	want := refMaskCopy(payload, key, pos, true)
	got := maskCopy(c.impl.MaskCopy, b, b, key, pos)
	if !c.src.Intact() {
		got.wrong = "wrote outside dst[:len(src)]"
	}
	if c.agree(got, want) {
		return nil, true
	}
	s := site{fn: "MaskCopy", payload: payload, key: key, pos: pos, plan: plan{align: align},
		args: fmt.Sprintf("align=%d in place", align)}
	return s.failure(got, want), true
}

// checkChunked masks payload in the calls the sorted boundaries cuts
// delimit, each starting at the position the previous one returned, and
// compares the result with one reference call. A failure is minimized in
// its payload (the boundaries clamped to it), then in its boundaries.
func (c *checker) checkChunked(payload []byte, key [4]byte, pos int, cuts []int) (*equiv.Counterexample, bool) {
	ce, compared := c.chunkedOnce(payload, key, pos, cuts)
	if ce == nil {
		return nil, compared
	}
	fails := func(d []byte, cuts []int) bool {
		ce, _ := c.chunkedOnce(d, key, pos, clamp(cuts, len(d)))
		return ce != nil
	}
	small := equiv.ShrinkBytes(payload, func(d []byte) bool { return fails(d, cuts) })
	fewer := clamp(cuts, len(small))
	for i := len(fewer) - 1; i >= 0; i-- {
		if try := slices.Delete(slices.Clone(fewer), i, i+1); fails(small, try) {
			fewer = try
		}
	}
	if sce, _ := c.chunkedOnce(small, key, pos, fewer); sce != nil {
		return sce, true
	}
	return ce, true
}

func (c *checker) chunkedOnce(payload []byte, key [4]byte, pos int, cuts []int) (*equiv.Counterexample, bool) {
	b := bytes.Clone(payload)
	bounds := append(slices.Clone(cuts), len(b))
	if c.chunksExcluded(b, key, pos, bounds) {
		return nil, false
	}
	c.size(len(payload))
	want := refMask(payload, key, pos)
	next, prev := pos, 0
	var p *equiv.Panic
	for _, end := range bounds {
		o := mask(c.impl.Mask, b[prev:end], key, next)
		if next, p = o.next, o.p; p != nil {
			break
		}
		prev = end
	}
	got := outcome{out: b, next: next, p: p}
	if c.agree(got, want) {
		return nil, true
	}
	return chunkSite(payload, key, pos, cuts).failure(got, want), true
}

func chunkSite(payload []byte, key [4]byte, pos int, cuts []int) site {
	return site{fn: "Mask (chunked)", payload: payload, key: key, pos: pos, plan: plan{chunks: cuts},
		args: fmt.Sprintf("chunks=%v", cuts)}
}

// chunksExcluded reports whether any call of a chunked masking of b is out
// of scope, each call taken with the position the reference returns to it.
func (c *checker) chunksExcluded(b []byte, key [4]byte, pos int, bounds []int) bool {
	prev, at := 0, pos
	for _, end := range bounds {
		if equiv.Excluded(c.cfg, Input{Func: "Mask", Payload: b[prev:end], Key: key, Pos: at}) {
			return true
		}
		prev, at = end, (pos+end)&3
	}
	return false
}

// clamp returns cuts with every boundary at most n.
func clamp(cuts []int, n int) []int {
	out := make([]int, len(cuts))
	for i, c := range cuts {
		out[i] = min(c, n)
	}
	return out
}

// tally returns a function that counts a check's comparison, if it made
// one, and turns its counterexample into the method's failure.
func tally(r *equiv.Run) func(*equiv.Counterexample, bool) error {
	return func(ce *equiv.Counterexample, compared bool) error {
		if ce != nil {
			return r.Fail(ce)
		}
		if compared {
			r.Count(1)
		}
		return nil
	}
}

// markers fills b with distinct-as-possible marker octets: b[i] = 17 +
// 151·(i+salt) (mod 256) takes all 256 values over any 256 consecutive
// positions, so that every output octet shows which key octet was used.
func markers(b []byte, salt int) {
	for i := range b {
		b[i] = byte(17 + 151*(i+salt))
	}
}
