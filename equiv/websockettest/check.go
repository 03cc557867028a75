package websockettest

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// checker checks one implementation under one run's configuration. Its
// harness and scratch buffers make it single-goroutine: every method run
// (and every CheckInput) makes its own.
//
// Each check compares one input and returns the minimized counterexample,
// if the implementation disagreed, and whether it compared anything (a
// call out of scope, see Exclude, or a nil MaskCopy, is not compared);
// the methods count what was compared.
type checker struct {
	impl Impl
	cfg  *equiv.Config
	// h makes every call of the implementation, placing its slices as
	// its contract says (contracts); fresh is another, whose buffers lie
	// elsewhere, for an input that failed where another had just passed
	// (reused).
	h, fresh *equiv.Harness
	refBuf   equiv.Buffer // the reference's overlap arrays and its streamers' p
	scratch  []byte       // a MaskCopy dst's contents before the call
	// run, if not nil, is the method run whose domain size and lens
	// record (see domain.go); recount, if not nil, counts an input
	// checked again with other contents (Run.Count).
	run     *equiv.Run
	recount func(int)
	lens    [len(lenClasses)]int64
}

func newChecker(impl Impl, cfg *equiv.Config) *checker {
	return &checker{impl: impl, cfg: cfg, h: equiv.NewHarness(cfg)}
}

// release gives the checker's buffers back (equiv.Harness.Release,
// equiv.Buffer.Release).
func (c *checker) release() {
	c.h.Release()
	if c.fresh != nil {
		c.fresh.Release()
	}
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

// callMask calls the implementation's Mask on b, placed by k, and judges
// the memory around b once it has returned.
func (c *checker) callMask(k *equiv.Call, b []byte, key [4]byte, pos int) outcome {
	o := outcome{out: b}
	o.p = k.Do(func() { o.next = c.impl.Mask(b, key, pos) })
	if o.p == nil {
		o.wrong = k.Flaw()
	}
	return o
}

// callMaskCopy calls the implementation's MaskCopy(dst, src), placed by
// k, and judges the memory of both once it has returned: a write to
// dst's canaries or past dst[:len(src)] is "wrote outside
// dst[:len(src)]", one to src "modified src" (where src cannot lie on
// read-only pages; where it can, the write faults).
func (c *checker) callMaskCopy(k *equiv.Call, dst, src []byte, key [4]byte, pos int) outcome {
	o := outcome{out: dst[:min(len(dst), len(src))]}
	o.p = k.Do(func() { o.next = c.impl.MaskCopy(dst, src, key, pos) })
	if o.p == nil {
		o.wrong = k.Flaw()
		if o.wrong == "wrote outside dst" || o.wrong == "modified dst" {
			o.wrong = "wrote outside dst[:len(src)]"
		}
	}
	return o
}

// dstInit returns the contents of a MaskCopy dst of n+slack octets before
// the call, in the checker's scratch: canaries in dst[:n], which the call
// must all overwrite, and markers in the slack past it, which it must
// leave (the harness compares them, or they lie on read-only pages).
func (c *checker) dstInit(n, slack int) []byte {
	m := n + slack
	if cap(c.scratch) < m {
		c.scratch = make([]byte, m)
	}
	d := c.scratch[:m]
	fillCanary(d[:min(n, m)])
	if slack > 0 {
		markers(d[n:], 11)
	}
	return d
}

// canaries is a block of equiv.Canary octets, for fillCanary.
var canaries = bytes.Repeat([]byte{equiv.Canary}, 4096)

func fillCanary(b []byte) {
	for len(b) > 0 {
		b = b[copy(b, canaries):]
	}
}

// layout describes where a slice of n octets with access acc lay at
// align, of which the function writes the first w (equiv.LayoutFor), for
// a counterexample: its spare capacity or nil-ness and the page it lay
// flush against, a function of its length and alignment that a replay
// reproduces.
func layout(acc equiv.Access, n, align, w int) string {
	lay := equiv.LayoutFor(acc, n, align, w)
	lay.ReadOnly = false // the contract says which slices are
	return lay.String()
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
// that one's counterexample. Now and then an input that passed is checked
// again with other contents at the same address (again).
//
// An input over shrinkLimit is reported as found: each shrinking step
// would cost as much as the input, and the classes that long (len>=4Mi)
// hold only bugs that need the length.
func (c *checker) minimized(payload []byte, once func([]byte) (*equiv.Counterexample, bool)) (*equiv.Counterexample, bool) {
	ce, compared := once(payload)
	switch {
	case ce == nil && compared:
		return c.again(payload, once), true
	case ce == nil:
		return nil, false
	}
	return shrunk(payload, once, ce), true
}

// shrunk returns the counterexample of the smallest payload
// equiv.ShrinkBytes finds on which once still fails, or ce, once's on
// payload, if payload is over shrinkLimit or the smaller one passes when
// checked again.
func shrunk(payload []byte, once func([]byte) (*equiv.Counterexample, bool), ce *equiv.Counterexample) *equiv.Counterexample {
	if len(payload) > shrinkLimit {
		return ce
	}
	small := equiv.ShrinkBytes(payload, func(d []byte) bool {
		ce, _ := once(d)
		return ce != nil
	})
	if sce, _ := once(small); sce != nil {
		return sce
	}
	return ce // the implementation is not deterministic
}

// shrinkLimit is the longest input minimized.
const shrinkLimit = 1 << 20

// again checks payload, which once has just passed, again with other
// contents at the same address, when equiv.Again says so, counting it.
func (c *checker) again(payload []byte, once func([]byte) (*equiv.Counterexample, bool)) *equiv.Counterexample {
	ce, ran := equiv.Again(c.h, payload, vary, func(v []byte) *equiv.Counterexample {
		ce, _ := once(v)
		return ce
	})
	if ran && c.recount != nil {
		c.recount(1)
	}
	if ce == nil {
		return nil
	}
	return c.reused(payload, ce, func(v []byte) *equiv.Counterexample { return shrunk(v, once, ce) }, func(v []byte) *equiv.Counterexample {
		ce, _ := once(v)
		return ce
	})
}

// vary returns b with every octet complemented: the same length, other
// contents. An implementation that remembers a result by its input's
// address (or keeps a view of it) answers the old one.
func vary(b []byte) ([]byte, bool) {
	v := make([]byte, len(b))
	for i, o := range b {
		v[i] = ^o
	}
	return v, len(b) > 0
}

// reused reports ce, the failure of payload varied (vary) and checked
// again at the address where payload had just passed. If the varied
// input fails in buffers elsewhere too (check, in the fresh harness), it
// is an input like any other, minimized (shrink); else what failed is the
// second call at one address, which no single input replays: ce is
// reported without a fuzz form, saying so.
func (c *checker) reused(payload []byte, ce *equiv.Counterexample, shrink, check func([]byte) *equiv.Counterexample) *equiv.Counterexample {
	v, _ := vary(payload)
	if c.elsewhere(func() *equiv.Counterexample { return check(v) }) != nil {
		return shrink(v)
	}
	ce.Args += fmt.Sprintf(" (at the address where %s had just passed: the same call with other contents)", equiv.HexAt(payload, 0))
	ce.FuzzTarget, ce.FuzzArgs = "", nil
	return ce
}

// elsewhere runs f with the checker's other harness, whose buffers lie
// elsewhere.
func (c *checker) elsewhere(f func() *equiv.Counterexample) *equiv.Counterexample {
	if c.fresh == nil {
		c.fresh = equiv.NewHarness(c.cfg)
	}
	c.h, c.fresh = c.fresh, c.h
	defer func() { c.h, c.fresh = c.fresh, c.h }()
	return f()
}

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
	a := harnessArena{c, p.align}
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
		return c.minimized(payload, func(d []byte) (*equiv.Counterexample, bool) {
			return c.maskCopyApart(d, key, pos, p.align, p.dstAlign, p.dstSlack)
		})
	}
	return nil, false
}

// checkMask compares Mask(payload, key, pos) with the payload placed at
// align as Mask's contract says (equiv.Call.Bytes): the masked octets,
// the returned position, the memory around b.
func (c *checker) checkMask(payload []byte, key [4]byte, pos, align int) (*equiv.Counterexample, bool) {
	return c.minimized(payload, func(d []byte) (*equiv.Counterexample, bool) { return c.maskOnce(d, key, pos, align) })
}

// maskOnce is one comparison of checkMask's, on d.
func (c *checker) maskOnce(d []byte, key [4]byte, pos, align int) (*equiv.Counterexample, bool) {
	k := c.h.Call(cMask)
	defer k.End()
	b := k.Bytes(0, d, align)
	if equiv.Excluded(c.cfg, Input{Func: "Mask", Payload: b, Key: key, Pos: pos}) {
		return nil, false
	}
	c.size(len(d))
	want := refMask(d, key, pos)
	got := c.callMask(k, b, key, pos)
	if c.agree(got, want) {
		return nil, true
	}
	s := site{fn: "Mask", payload: d, key: key, pos: pos, plan: plan{align: align}, args: layout(equiv.Writes, len(d), align, 0)}
	return s.failure(got, want), true
}

// checkMaskCopy compares MaskCopy from the payload at align into a
// separate destination at dstAlign (src untouched, nothing written outside
// dst[:len(src)]), then in place (dst and src the same slice), if the
// implementation has MaskCopy.
func (c *checker) checkMaskCopy(payload []byte, key [4]byte, pos, align, dstAlign int) (*equiv.Counterexample, bool) {
	if c.impl.MaskCopy == nil {
		return nil, false
	}
	ce, apart := c.minimized(payload, func(d []byte) (*equiv.Counterexample, bool) {
		return c.maskCopyApart(d, key, pos, align, dstAlign, 0)
	})
	if ce != nil {
		return ce, true
	}
	ce, inPlace := c.minimized(payload, func(d []byte) (*equiv.Counterexample, bool) {
		return c.maskCopyInPlace(d, key, pos, align)
	})
	return ce, apart || inPlace
}

// maskCopyApart compares MaskCopy from the payload at align (read-only)
// into a separate dst at dstAlign, slack octets longer than src (filled
// with markers that must stay), or -slack octets too short (a panic).
func (c *checker) maskCopyApart(payload []byte, key [4]byte, pos, align, dstAlign, slack int) (*equiv.Counterexample, bool) {
	n := len(payload)
	if n+slack < 0 {
		return nil, false
	}
	k := c.h.Call(cMaskCopy)
	defer k.End()
	dst := k.Prefix(0, c.dstInit(n, slack), dstAlign, n)
	src := k.Bytes(1, payload, align)
	if equiv.Excluded(c.cfg, Input{Func: "MaskCopy", Payload: src, Dst: dst, Key: key, Pos: pos}) {
		return nil, false
	}
	c.size(n)
	want := refMaskCopyInto(payload, key, pos, len(dst))
	got := c.callMaskCopy(k, dst, src, key, pos)
	if c.agree(got, want) {
		return nil, true
	}
	s := site{fn: "MaskCopy", payload: payload, key: key, pos: pos, plan: plan{align: align, dstAlign: dstAlign, dstSlack: slack},
		args: fmt.Sprintf("%s dst %s len(dst)=len(src)+%d", layout(equiv.Reads, n, align, 0), layout(equiv.WritesPrefix, n+slack, dstAlign, n), slack)}
	return s.failure(got, want), true
}

func (c *checker) maskCopyInPlace(payload []byte, key [4]byte, pos, align int) (*equiv.Counterexample, bool) {
	k := c.h.Call(cMaskCopy)
	defer k.End()
	b := k.Prefix(0, payload, align, len(payload))
	if equiv.Excluded(c.cfg, Input{Func: "MaskCopy", Payload: b, Dst: b, Key: key, Pos: pos}) {
		return nil, false
	}
	c.size(len(payload))
	want := refMaskCopy(payload, key, pos, true)
	got := c.callMaskCopy(k, b, b, key, pos)
	if c.agree(got, want) {
		return nil, true
	}
	s := site{fn: "MaskCopy", payload: payload, key: key, pos: pos, plan: plan{align: align},
		args: layout(equiv.WritesPrefix, len(payload), align, len(payload)) + " in place"}
	return s.failure(got, want), true
}

// checkChunked masks payload in the calls the sorted boundaries cuts
// delimit, each starting at the position the previous one returned, and
// compares the result with one reference call. A failure is minimized in
// its payload (the boundaries clamped to it), then in its boundaries.
func (c *checker) checkChunked(payload []byte, key [4]byte, pos int, cuts []int) (*equiv.Counterexample, bool) {
	ce, compared := c.chunkedOnce(payload, key, pos, cuts)
	if ce == nil || len(payload) > shrinkLimit {
		return ce, compared
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

// chunkedOnce masks payload, placed at alignment 0 as Mask's contract
// says, in the calls cuts delimits: each call masks a piece of the one
// slice, with the rest of it past the piece.
func (c *checker) chunkedOnce(payload []byte, key [4]byte, pos int, cuts []int) (*equiv.Counterexample, bool) {
	k := c.h.Call(cMask)
	defer k.End()
	b := k.Bytes(0, payload, 0)
	bounds := append(slices.Clone(cuts), len(b))
	if c.chunksExcluded(b, key, pos, bounds) {
		return nil, false
	}
	c.size(len(payload))
	want := refMask(payload, key, pos)
	got := c.maskPieces(k, b, key, pos, bounds)
	if c.agree(got, want) {
		return nil, true
	}
	return chunkSite(payload, key, pos, cuts).failure(got, want), true
}

// maskPieces masks b, placed by k, in the calls ending at bounds, each
// from the position the last returned; every call after the first is
// noted as one of Mask's (equiv.Harness.Note).
func (c *checker) maskPieces(k *equiv.Call, b []byte, key [4]byte, pos int, bounds []int) outcome {
	next, prev := pos, 0
	var p *equiv.Panic
	for i, end := range bounds {
		if i > 0 {
			c.h.Note(cMask)
		}
		piece := b[prev:end]
		if p = k.Do(func() { next = c.impl.Mask(piece, key, next) }); p != nil {
			break
		}
		prev = end
	}
	o := outcome{out: b, next: next, p: p}
	if p == nil {
		o.wrong = k.Flaw()
	}
	return o
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
