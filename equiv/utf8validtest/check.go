package utf8validtest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
	"github.com/equivcheck/equivcheck/reference/websocket"
)

// checker compares one implementation with the reference, one input at a
// time. Its harness makes it single-goroutine: every method run and every
// fuzz input builds its own.
type checker struct {
	impl  Impl
	cfg   *equiv.Config
	h     *equiv.Harness // places every call's buffers as its contract says
	fresh *equiv.Harness // another, whose buffers lie elsewhere (reused)
	run   *equiv.Run     // the method's run, which records sizes; nil for a fuzz input
	// site, when set, places every text flush against a guard page
	// instead (the guard method).
	site *guardSite
	// rng is the random source of the exhaustive part under way: its
	// own, seeded from the run's seed and the part's index, so that the
	// part draws the same inputs on whichever shard runs it.
	rng *rand.Rand
	// unmasks says whether the implementation's Validators are
	// Unmaskers: 0 not yet known, 1 they are, -1 they are not.
	unmasks int8
	scratch []byte // garbage's octets
}

func newChecker(impl Impl, cfg *equiv.Config) *checker {
	return &checker{impl: impl, cfg: cfg, h: equiv.NewHarness(cfg)}
}

// release gives the checker's buffers back (equiv.Harness.Release).
func (c *checker) release() {
	c.h.Release()
	if c.fresh != nil {
		c.fresh.Release()
	}
}

// place places text, parameter 0 of k's function, where the
// implementation reads or writes it: laid out by the harness at align as
// the function's contract says (read-only for Valid and Write, between
// read-only octets for Unmask where the alignment allows), or flush
// against the guard site's page.
func (c *checker) place(k *equiv.Call, text []byte, align int) []byte {
	if c.site == nil {
		return k.Bytes(0, text, align)
	}
	k.Mark(equiv.MechGuard)
	b := c.site.at(len(text))
	copy(b, text)
	return b
}

// slot returns n canary octets for a Read's p, parameter 0 of k's
// function: laid out by the harness at align, or at the guard site.
func (c *checker) slot(k *equiv.Call, n, align int) []byte {
	if c.site == nil {
		return k.Output(0, n, align)
	}
	k.Mark(equiv.MechGuard)
	p := c.site.at(n)
	for i := range p {
		p[i] = equiv.Canary
	}
	return p
}

// flaw says what the call k made did to memory its contract does not let
// it write ("wrote outside b", "modified p"), or "": at the guard site an
// access outside faults instead.
func (c *checker) flaw(k *equiv.Call) string {
	if c.site != nil {
		return ""
	}
	return k.Flaw()
}

// poison overwrites b[i:j], the text k placed, once a call that must not
// keep it has returned.
func (c *checker) poison(k *equiv.Call, b []byte, i, j int) {
	if c.site == nil {
		k.Poison(0, i, j)
		return
	}
	equiv.PoisonBytes(b[i:j])
}

// has reports whether the implementation has fn: "Valid", "Validator",
// "Unmask" or "Reader".
func (c *checker) has(fn string) bool {
	switch fn {
	case "Valid":
		return c.impl.Valid != nil
	case "Validator":
		return c.impl.NewValidator != nil
	case "Unmask":
		if c.unmasks == 0 {
			c.unmasks = -1
			if c.impl.NewValidator != nil {
				c.h.Note(cNew)
				if v, ok := sampleValidator(c.impl); ok {
					if _, ok := v.(Unmasker); ok {
						c.unmasks = 1
					}
				}
			}
		}
		return c.unmasks > 0
	}
	return c.impl.NewReader != nil
}

// compare checks in, unless its function is missing or it is out of
// scope, and returns the minimized counterexample, if the implementation
// disagreed, and how many inputs it compared: 0, 1, or 2 when it checked
// in again with other contents at the same addresses (equiv.Again).
func (c *checker) compare(in Input) (*equiv.Counterexample, int) {
	if !c.has(in.Func) || equiv.Excluded(c.cfg, in) {
		return nil, 0
	}
	if c.run != nil {
		c.run.Size(len(in.Text))
	}
	if ce := c.call(in); ce != nil {
		return c.minimize(in, ce), 1
	}
	if c.site != nil {
		return nil, 1
	}
	ce, again := equiv.Again(c.h, in, vary, c.call)
	if !again {
		return nil, 1
	}
	if ce != nil {
		return c.reused(in, ce), 2
	}
	return nil, 2
}

// vary returns in with other contents of the same length, each octet
// complemented (a valid text becomes one that fails at its first octet
// that is ASCII, and the reverse), and every other argument the same: an
// implementation that remembers a verdict by its input's address, or
// keeps a view of it, answers the old one. A scale text is varied so
// that its oracle still judges it, to the other verdict
// (scaleOracle.varied).
func vary(in Input) (Input, bool) {
	v := in
	if in.oracle != nil && in.Func != "Reader" {
		v.Text, v.oracle = in.oracle.varied()
		return v, len(in.Text) > 0
	}
	v.Text = make([]byte, len(in.Text))
	for i, o := range in.Text {
		v.Text[i] = ^o
	}
	v.oracle = nil
	return v, len(in.Text) > 0
}

// reused reports ce, the failure of in varied (vary) and checked again at
// the addresses where in had just passed. If the varied input fails in
// buffers elsewhere too, it is an input like any other, minimized; else
// what failed is the second call at one address, which no single input
// replays.
func (c *checker) reused(in Input, ce *equiv.Counterexample) *equiv.Counterexample {
	v, _ := vary(in)
	if c.fresh == nil {
		c.fresh = equiv.NewHarness(c.cfg)
	}
	c.h, c.fresh = c.fresh, c.h
	alone := c.call(v)
	c.h, c.fresh = c.fresh, c.h
	if alone != nil {
		return c.minimize(v, alone)
	}
	ce.Args += fmt.Sprintf(" (at the address where %s had just passed: the same call with other contents)", equiv.HexAt(in.Text, -1))
	ce.FuzzTarget, ce.FuzzArgs = "", nil
	return ce
}

// call runs in once and returns the disagreement, not minimized, or nil.
// A scale input's reference transcript is its oracle's (scale.go), which
// runs the reference on the octets that are not known-valid filler.
func (c *checker) call(in Input) *equiv.Counterexample {
	var got, want transcript
	switch in.Func {
	case "Valid":
		got, want = c.valid(in), refValid(in)
	case "Validator":
		got, want = c.stream(in), refStream(in)
	case "Unmask":
		got, want = c.unmask(in), refUnmask(in)
	default:
		got, want = c.read(in), refRead(in)
	}
	if c.agree(got, want) {
		return nil
	}
	return in.failure(got, want)
}

// agree reports whether the implementation's transcript got agrees with
// the reference's want: no panic and the same results, errors as the
// configuration compares them (Offset where the implementation has it),
// and nothing else wrong.
func (c *checker) agree(got, want transcript) bool {
	if got.p != nil || got.wrong != "" || got.valid != want.valid || len(got.calls) != len(want.calls) {
		return false
	}
	for i := range got.calls {
		g, w := got.calls[i], want.calls[i]
		if g.n != w.n || g.next != w.next || !c.cfg.SameError(g.err, w.err) || !bytes.Equal(g.tail, w.tail) {
			return false
		}
	}
	return c.cfg.SameError(got.close, want.close) && c.cfg.SameError(got.midClose, want.midClose) &&
		(got.offset < 0 || got.offset == want.offset) && bytes.Equal(got.out, want.out)
}

// minimize shrinks in's text, on which ce was found, keeping its splits
// within it, and returns the counterexample of the smallest text that
// still fails. A text longer than longShrink is first cut to the
// shortest failing prefix, then suffix, by bisection (shrinkLong), each
// piece of a scale text judged by its oracle's (scaleOracle.within).
func (c *checker) minimize(in Input, ce *equiv.Counterexample) *equiv.Counterexample {
	fails := func(t Input) bool { return !equiv.OutOfScope(c.cfg, t) && c.call(t) != nil }
	with := func(d []byte) Input {
		t := in
		t.Text, t.Splits, t.oracle = d, clamp(in.Splits, len(d)), in.oracle.within(d)
		return t
	}
	dataFails := func(d []byte) bool { return fails(with(d)) }
	small := with(shrinkLong(in.Text, dataFails))
	if len(small.Text) <= longShrink {
		small = with(equiv.ShrinkBytes(small.Text, dataFails))
	}
	small.Splits = dropSplits(small, fails)
	if sce := c.call(small); sce != nil {
		return sce
	}
	return ce // the implementation is not deterministic
}

// dropSplits removes each of in's splits, last first, that the failure
// does not need.
func dropSplits(in Input, fails func(Input) bool) []int {
	for i := len(in.Splits) - 1; i >= 0; i-- {
		try := in
		if try.Splits = slices.Delete(slices.Clone(in.Splits), i, i+1); fails(try) {
			in = try
		}
	}
	return in.Splits
}

// longShrink is the longest text equiv.ShrinkBytes is given: its budget
// of tries, each running the reference over the text, would take seconds
// on megabytes.
const longShrink = 1 << 16

// shrinkLong cuts a text longer than longShrink to the shortest failing
// prefix, then suffix, that a bisection finds (about 2·log2(len) tries):
// a bug that needs many octets (a chunked or parallel path, a counter
// that wraps) keeps just as many.
func shrinkLong(d []byte, fails func([]byte) bool) []byte {
	if len(d) <= longShrink {
		return d
	}
	return equiv.ShrinkSuffix(equiv.ShrinkPrefix(d, fails), fails)
}

// clamp returns splits with every boundary at most n.
func clamp(splits []int, n int) []int {
	out := make([]int, len(splits))
	for i, s := range splits {
		out[i] = min(s, n)
	}
	return out
}

// pieces returns the [lo, hi) bounds of in's calls: the splits, then the
// text's end.
func (in Input) pieces() [][2]int {
	out := make([][2]int, len(in.Splits)+1)
	prev := 0
	for i := range out {
		end := len(in.Text)
		if i < len(in.Splits) {
			end = in.Splits[i]
		}
		out[i] = [2]int{prev, end}
		prev = end
	}
	return out
}

// args renders in's coordinates other than the text.
func (in Input) args() string {
	var b strings.Builder
	b.WriteString(in.layout())
	if in.Func != "Valid" {
		fmt.Fprintf(&b, " calls ending at %v", append(slices.Clone(in.Splits), len(in.Text)))
	}
	switch in.Func {
	case "Unmask":
		fmt.Fprintf(&b, " key=%x pos=%d", in.Key, in.Pos)
	case "Reader":
		fmt.Fprintf(&b, " key=%x over %q", in.Key, in.Underlying)
	}
	return b.String()
}

// layout describes where in's text lay: its alignment and its spare
// capacity or nil-ness, and the page it lay flush against
// (equiv.LayoutFor, a function of its length and alignment that a replay
// reproduces). A Reader's Reads each place their own p at the alignment.
func (in Input) layout() string {
	acc := equiv.Reads
	switch in.Func {
	case "Unmask":
		acc = equiv.Writes
	case "Reader":
		return fmt.Sprintf("align=%d", in.Align)
	}
	lay := equiv.LayoutFor(acc, len(in.Text), in.Align, 0)
	lay.ReadOnly = false // every text Valid and Write read is: the contract says which
	return lay.String()
}

// failure is the counterexample of in, on which the implementation's
// transcript got differs from the reference's want.
func (in Input) failure(got, want transcript) *equiv.Counterexample {
	if got.offset < 0 {
		want.offset = -1 // a Validator without Offset: the message shows what it has
	}
	ce := &equiv.Counterexample{
		Func:       in.Func,
		Input:      bytes.Clone(in.Text),
		Args:       in.args(),
		Got:        got.String(in.Func),
		Want:       want.String(in.Func),
		Stack:      equiv.StackOf(got.p),
		FuzzTarget: fuzzName,
	}
	if p, ok := in.plan(); ok {
		ce.FuzzArgs = []any{bytes.Clone(in.Text), keyWord(in.Key), in.Pos, encodePlan(p)}
	}
	return ce
}

// call is what one Write, Unmask or Read returned; for a Read, also what
// it left in p past the octets it returned.
type call struct {
	n, next int
	err     error
	tail    []byte
}

// transcript is what one input did: Valid's verdict, or each call's
// results, the verdict of Close in the middle (after the first call) and
// at the end, Offset at the end (-1 if the Validator has none), the
// octets an Unmask or a Reader produced, and the panic or the breach of
// the contract that the results do not show.
type transcript struct {
	valid           bool
	calls           []call
	midClose, close error
	offset          int64
	out             []byte
	p               *equiv.Panic
	wrong           string
}

func (t transcript) String(fn string) string {
	if t.p != nil {
		return fmt.Sprintf("panic(%v)", t.p.Value)
	}
	var b strings.Builder
	if fn == "Valid" {
		fmt.Fprintf(&b, "%v", t.valid)
	} else {
		for i, c := range t.calls {
			if i > 0 {
				b.WriteString("; ")
			}
			if fn == "Unmask" {
				fmt.Fprintf(&b, "next %d, ", c.next)
			}
			fmt.Fprintf(&b, "%d, %s", c.n, errName(c.err))
			if written(c.tail) {
				fmt.Fprintf(&b, " and p past n %s", equiv.HexAt(c.tail, -1))
			}
		}
		fmt.Fprintf(&b, "; Close %s", errName(t.close))
		if t.midClose != nil {
			fmt.Fprintf(&b, " (after the first call %s)", errName(t.midClose))
		}
		if t.offset >= 0 {
			fmt.Fprintf(&b, "; Offset %d", t.offset)
		}
		if t.out != nil {
			fmt.Fprintf(&b, "; octets %s", equiv.HexAt(t.out, -1))
		}
	}
	if t.wrong != "" {
		fmt.Fprintf(&b, ", but %s", t.wrong)
	}
	return b.String()
}

// written reports whether a Read left anything but canaries in p past
// the octets it returned (the reference leaves p's canaries there).
func written(tail []byte) bool {
	for _, o := range tail {
		if o != equiv.Canary {
			return true
		}
	}
	return false
}

// errName names the reference's errors, and any other.
func errName(err error) string {
	switch err {
	case nil:
		return "nil"
	case ref.ErrInvalid:
		return "ErrInvalid"
	case ref.ErrIncomplete:
		return "ErrIncomplete"
	case websocket.ErrInvalidRead:
		return "ErrInvalidRead"
	}
	return fmt.Sprintf("%q", err.Error())
}

// valid calls Valid on the text, placed as its contract says at
// in.Align.
func (c *checker) valid(in Input) (t transcript) {
	k := c.h.Call(cValid)
	defer k.End()
	b := c.place(k, in.Text, in.Align)
	t.p = k.Do(func() { t.valid = c.impl.Valid(b) })
	switch {
	case t.p != nil:
	case c.site != nil && !bytes.Equal(b, in.Text):
		t.wrong = "modified b"
	default:
		t.wrong = c.flaw(k)
	}
	return t
}

// refValid is valid on the reference (on its oracle, for a scale input).
func refValid(in Input) transcript {
	if in.oracle != nil {
		return transcript{valid: in.oracle.valid()}
	}
	return transcript{valid: ref.Valid(in.Text)}
}

// newValidator, reset, closeOf and offsetOf call the implementation's
// function they name, each noted by the harness.
func (c *checker) newValidator() Validator {
	c.h.Note(cNew)
	return c.impl.NewValidator()
}

func (c *checker) reset(v Validator) {
	c.h.Note(cReset)
	v.Reset()
}

func (c *checker) closeOf(v Validator) error {
	c.h.Note(cClose)
	return v.Close()
}

// offsetOf is v's Offset, or -1 when v has none (so that the transcripts
// compare the rest: agree, failure).
func (c *checker) offsetOf(v Validator) int64 {
	o, ok := v.(Offsetter)
	if !ok {
		return -1
	}
	c.h.Note(cOffset)
	return o.Offset()
}

// garbage writes a new Validator the first octets of a character, which
// its Reset must forget: octets of the suite's own, noted by the harness
// (the checksum suite's Digests are given theirs likewise).
func (c *checker) garbage(v Validator, octets ...byte) {
	c.h.Note(cWrite)
	c.scratch = append(c.scratch[:0], octets...)
	v.Write(c.scratch)
}

// stream writes the text, placed on read-only pages at in.Align, to a new
// Validator in in's pieces, after a partial character and a Reset (no
// state may leak through Reset), overwriting each piece once Write has
// returned (a Validator must not keep a view of it); Close is asked after
// the first piece and at the end, and Offset at the end. A text of
// equiv.ScaleMin octets or more counts every call as one at scale.
func (c *checker) stream(in Input) (t transcript) {
	k := c.h.Call(cWrite)
	defer k.End()
	b := c.place(k, in.Text, in.Align)
	feed := func() {
		v := c.newValidator()
		c.garbage(v, 0xE2, 0x82)
		c.reset(v)
		pieces := in.pieces()
		t.calls = make([]call, 0, len(pieces))
		for i, pc := range pieces {
			n, err := v.Write(b[pc[0]:pc[1]])
			t.calls = append(t.calls, call{n: n, err: err})
			c.poison(k, b, pc[0], pc[1])
			if i == 0 {
				t.midClose = c.closeOf(v)
			}
		}
		t.close, t.offset = c.closeOf(v), c.offsetOf(v)
	}
	t.p = k.Do(func() { c.atScale(len(b), feed) })
	if t.p == nil {
		t.wrong = c.flaw(k)
	}
	return t
}

// atScale runs f, which calls a Validator or a Reader on n octets,
// counting its calls as ones at scale (equiv.MechScale) when n is
// equiv.ScaleMin or more: Close's verdict and Offset's count are then of
// a long text.
func (c *checker) atScale(n int, f func()) {
	if n < equiv.ScaleMin {
		f()
		return
	}
	c.h.Marking(equiv.MechScale, f)
}

// refStream is stream on the reference (on its oracle, for a scale
// input).
func refStream(in Input) (t transcript) {
	v := skipper{o: in.oracle}
	t.calls = make([]call, 0, len(in.Splits)+1)
	for i, pc := range in.pieces() {
		n, err := v.Write(in.Text[pc[0]:pc[1]])
		t.calls = append(t.calls, call{n: n, err: err})
		if i == 0 {
			t.midClose = v.Close()
		}
	}
	t.close, t.offset = v.Close(), v.Offset()
	return t
}

// masked is the text masked with key from pos: what an Unmask or a Reader
// is given.
func masked(text []byte, key [4]byte, pos int) []byte {
	w := bytes.Clone(text)
	mask(w, key, pos)
	return w
}

// mask masks b with key from pos in place, as reference/websocket's Mask
// does, eight octets at a time: the suite masks megabytes of text to
// make its inputs, where the reference's octet at a time would be most
// of the scale method's time. TestMask compares the two.
func mask(b []byte, key [4]byte, pos int) {
	var k [8]byte
	for i := range k {
		k[i] = key[(pos+i)&3]
	}
	w := binary.LittleEndian.Uint64(k[:])
	i := 0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], binary.LittleEndian.Uint64(b[i:])^w)
	}
	for ; i < len(b); i++ {
		b[i] ^= k[i&7]
	}
}

// unmask places the masked text at in.Align (writable, between canaries,
// and read-only octets where the alignment allows) and unmasks and
// validates it in in's pieces, each from the position the previous
// returned, after a partial character and a Reset; each piece is
// overwritten once its octets are taken (compared with the text in
// place, for a scale text: its transcript holds the octets only from
// the first piece that differs).
func (c *checker) unmask(in Input) (t transcript) {
	k := c.h.Call(cUnmask)
	defer k.End()
	b := c.place(k, in.Text, in.Align)
	mask(b, in.Key, in.Pos)
	var expect []byte // a scale text's unmasked octets, compared in place
	if in.oracle != nil {
		expect = in.Text
	} else {
		t.out = make([]byte, 0, len(b))
	}
	feed := func() {
		v := c.newValidator()
		u := v.(Unmasker)
		c.garbage(v, 0xF0, 0x9F)
		c.reset(v)
		pos := in.Pos
		pieces := in.pieces()
		t.calls = make([]call, 0, len(pieces))
		for i, pc := range pieces {
			next, n, err := u.Unmask(b[pc[0]:pc[1]], in.Key, pos)
			t.calls = append(t.calls, call{n: n, next: next, err: err})
			switch piece := b[pc[0]:pc[1]]; {
			case expect == nil:
				t.out = append(t.out, piece...)
			case !bytes.Equal(piece, expect[pc[0]:pc[1]]):
				t.out = append(slices.Clone(expect[:pc[0]]), piece...) // the octets before were right
				expect = nil
			}
			c.poison(k, b, pc[0], pc[1])
			pos = next
			if i == 0 {
				t.midClose = c.closeOf(v)
			}
		}
		t.close, t.offset = c.closeOf(v), c.offsetOf(v)
	}
	t.p = k.Do(func() { c.atScale(len(b), feed) })
	if t.p == nil {
		t.wrong = c.flaw(k)
	} else {
		t.out = nil
	}
	return t
}

// refUnmask is unmask on the reference (on its oracle, for a scale
// input, whose unmasked octets are the text: the oracle is given those).
func refUnmask(in Input) (t transcript) {
	v := skipper{o: in.oracle}
	b := in.Text
	if in.oracle == nil {
		b = masked(in.Text, in.Key, in.Pos)
	}
	t.calls = make([]call, 0, len(in.Splits)+1)
	pos := in.Pos
	for i, pc := range in.pieces() {
		next, n, err := v.Unmask(b[pc[0]:pc[1]], in.Key, pos)
		t.calls = append(t.calls, call{n: n, next: next, err: err})
		pos = next
		if i == 0 {
			t.midClose = v.Close()
		}
	}
	t.close, t.offset = v.Close(), v.Offset()
	if in.oracle == nil {
		t.out = b // for a scale text, unmask compares the octets with it in place
	}
	return t
}
