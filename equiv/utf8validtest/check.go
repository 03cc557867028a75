package utf8validtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
	"github.com/equivcheck/equivcheck/reference/websocket"
)

// checker compares one implementation with the reference, one input at a
// time. Its buffers make it single-goroutine: every method run and every
// fuzz input builds its own.
type checker struct {
	impl Impl
	cfg  *equiv.Config
	buf  equiv.Buffer // where the implementation's text goes
	run  *equiv.Run   // the method's run, which records sizes; nil for a fuzz input
	// site, when set, places every text flush against a guard page
	// instead (the guard method).
	site *guardSite
	// rng is the random source of the exhaustive part under way: its
	// own, seeded from the run's seed and the part's index, so that the
	// part draws the same inputs on whichever shard runs it.
	rng *rand.Rand
}

// input places text where the implementation reads it, on read-only pages
// at align where the system allows, or at the guard site.
func (c *checker) input(text []byte, align int) []byte {
	if c.site != nil {
		return c.flush(text)
	}
	return c.buf.Input(text, align)
}

// place places text where the implementation may write it: at align
// between canaries, or at the guard site.
func (c *checker) place(text []byte, align int) []byte {
	if c.site != nil {
		return c.flush(text)
	}
	return c.buf.Place(text, align)
}

// slot returns n octets for a Read's p: canaries at align, or at the
// guard site.
func (c *checker) slot(n, align int) []byte {
	if c.site != nil {
		return c.site.at(n)
	}
	return c.buf.Slot(n, align)
}

// flush copies text flush against the guard site's page.
func (c *checker) flush(text []byte) []byte {
	b := c.site.at(len(text))
	copy(b, text)
	return b
}

// intact reports whether the memory around the last text placed is
// unchanged (at a guard site, an access outside faults instead).
func (c *checker) intact() bool { return c.site != nil || c.buf.Intact() }

// poison overwrites b[i:j], the last text placed, once a call that must
// not keep it has returned.
func (c *checker) poison(b []byte, i, j int) {
	if c.site == nil {
		c.buf.PoisonRange(i, j)
		return
	}
	equiv.PoisonBytes(b[i:j])
}

func newChecker(impl Impl, cfg *equiv.Config) *checker {
	return &checker{impl: impl, cfg: cfg}
}

// release gives the checker's buffer back (equiv.Buffer.Release).
func (c *checker) release() { c.buf.Release() }

// has reports whether the implementation has fn: "Valid", "Validator",
// "Unmask" or "Reader".
func (c *checker) has(fn string) bool {
	switch fn {
	case "Valid":
		return c.impl.Valid != nil
	case "Validator":
		return c.impl.NewValidator != nil
	case "Unmask":
		if c.impl.NewValidator == nil {
			return false
		}
		_, ok := c.impl.NewValidator().(Unmasker)
		return ok
	}
	return c.impl.NewReader != nil
}

// compare checks in, unless its function is missing or it is out of
// scope, and returns the minimized counterexample, if the implementation
// disagreed, and whether it compared anything.
func (c *checker) compare(in Input) (*equiv.Counterexample, bool) {
	if !c.has(in.Func) || equiv.Excluded(c.cfg, in) {
		return nil, false
	}
	if c.run != nil {
		c.run.Size(len(in.Text))
	}
	ce := c.call(in)
	if ce == nil {
		return nil, true
	}
	return c.minimize(in, ce), true
}

// call runs in once and returns the disagreement, not minimized, or nil.
func (c *checker) call(in Input) *equiv.Counterexample {
	var got, want transcript
	switch in.Func {
	case "Valid":
		got, want = c.valid(in), transcript{valid: ref.Valid(in.Text)}
	case "Validator":
		got, want = c.stream(in), refStream(in)
	case "Unmask":
		got, want = c.unmask(in), refUnmask(in)
	default:
		got, want = c.read(in), refRead(in)
	}
	got.agreeOffsets(want)
	if c.agree(got, want) {
		return nil
	}
	return in.failure(got, want)
}

// agree reports whether the implementation's transcript got agrees with
// the reference's want: no panic and the same results, errors as the
// configuration compares them, and nothing else wrong.
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
		got.offset == want.offset && bytes.Equal(got.out, want.out)
}

// minimize shrinks in's text, on which ce was found, keeping its splits
// within it, and returns the counterexample of the smallest text that
// still fails.
func (c *checker) minimize(in Input, ce *equiv.Counterexample) *equiv.Counterexample {
	fails := func(t Input) bool { return !equiv.OutOfScope(c.cfg, t) && c.call(t) != nil }
	with := func(d []byte) Input {
		t := in
		t.Text, t.Splits = d, clamp(in.Splits, len(d))
		return t
	}
	small := with(equiv.ShrinkBytes(in.Text, func(d []byte) bool { return fails(with(d)) }))
	for i := len(small.Splits) - 1; i >= 0; i-- {
		try := small
		if try.Splits = slices.Delete(slices.Clone(small.Splits), i, i+1); fails(try) {
			small = try
		}
	}
	if sce := c.call(small); sce != nil {
		return sce
	}
	return ce // the implementation is not deterministic
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
	var out [][2]int
	prev := 0
	for _, end := range append(slices.Clone(in.Splits), len(in.Text)) {
		out = append(out, [2]int{prev, end})
		prev = end
	}
	return out
}

// args renders in's coordinates other than the text.
func (in Input) args() string {
	var b strings.Builder
	b.WriteString(equiv.LayoutOf(len(in.Text), in.Align).String())
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

// failure is the counterexample of in, on which the implementation's
// transcript got differs from the reference's want.
func (in Input) failure(got, want transcript) *equiv.Counterexample {
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

// valid calls Valid on the text placed on read-only pages at in.Align.
func (c *checker) valid(in Input) (t transcript) {
	b := c.input(in.Text, in.Align)
	t.p = equiv.Catch(func() { t.valid = c.impl.Valid(b) })
	if t.p == nil && !c.intact() {
		t.wrong = "wrote its input or around it"
	}
	return t
}

// stream writes the text, placed on read-only pages at in.Align, to a new
// Validator in in's pieces, after a partial character and a Reset (no
// state may leak through Reset), overwriting each piece once Write has
// returned (a Validator must not keep a view of it); Close is asked after
// the first piece and at the end, and Offset at the end.
func (c *checker) stream(in Input) (t transcript) {
	b := c.input(in.Text, in.Align)
	t.p = equiv.Catch(func() {
		v := c.impl.NewValidator()
		v.Write([]byte{0xE2, 0x82})
		v.Reset()
		for i, pc := range in.pieces() {
			n, err := v.Write(b[pc[0]:pc[1]])
			t.calls = append(t.calls, call{n: n, err: err})
			c.poison(b, pc[0], pc[1])
			if i == 0 {
				t.midClose = v.Close()
			}
		}
		t.close, t.offset = v.Close(), offsetOf(v)
	})
	if t.p == nil && !c.intact() {
		t.wrong = "wrote its input or around it"
	}
	return t
}

// refStream is stream on the reference.
func refStream(in Input) (t transcript) {
	var v ref.Validator
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

// offsetOf is v's Offset, or the reference's when v has none (so that
// the transcripts compare the rest).
func offsetOf(v Validator) int64 {
	if o, ok := v.(Offsetter); ok {
		return o.Offset()
	}
	return -1
}

// masked is the text masked with key from pos: what an Unmask or a Reader
// is given.
func masked(text []byte, key [4]byte, pos int) []byte {
	w := bytes.Clone(text)
	websocket.Mask(w, key, pos)
	return w
}

// unmask places the masked text at in.Align (writable, between canaries)
// and unmasks and validates it in in's pieces, each from the position the
// previous returned, after a partial character and a Reset.
func (c *checker) unmask(in Input) (t transcript) {
	wire := masked(in.Text, in.Key, in.Pos)
	b := c.place(wire, in.Align)
	t.p = equiv.Catch(func() {
		v := c.impl.NewValidator()
		u := v.(Unmasker)
		v.Write([]byte{0xF0, 0x9F})
		v.Reset()
		pos := in.Pos
		for i, pc := range in.pieces() {
			next, n, err := u.Unmask(b[pc[0]:pc[1]], in.Key, pos)
			t.calls = append(t.calls, call{n: n, next: next, err: err})
			pos = next
			if i == 0 {
				t.midClose = v.Close()
			}
		}
		t.close, t.offset = v.Close(), offsetOf(v)
	})
	if t.p == nil {
		t.out = bytes.Clone(b)
		if !c.intact() {
			t.wrong = "wrote outside b"
		}
	}
	return t
}

// refUnmask is unmask on the reference.
func refUnmask(in Input) (t transcript) {
	b := masked(in.Text, in.Key, in.Pos)
	var v ref.Validator
	pos := in.Pos
	for i, pc := range in.pieces() {
		next, n, err := v.Unmask(b[pc[0]:pc[1]], in.Key, pos)
		t.calls = append(t.calls, call{n: n, next: next, err: err})
		pos = next
		if i == 0 {
			t.midClose = v.Close()
		}
	}
	t.close, t.offset, t.out = v.Close(), v.Offset(), b
	return t
}

// agreeOffsets makes got's Offset the reference's when the implementation
// has no Offset method, so that the rest is compared.
func (t *transcript) agreeOffsets(want transcript) {
	if t.offset == -1 {
		t.offset = want.offset
	}
}
