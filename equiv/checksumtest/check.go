package checksumtest

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// checker compares one implementation with the reference, one input at a
// time. Every method run builds its own, so that runs share no state.
type checker struct {
	impl  Impl
	cfg   *equiv.Config
	h     *equiv.Harness // places every call's buffers as its contract says
	fresh *equiv.Harness // another, whose buffers lie elsewhere (reused)
	count func(int)      // records a comparison (Run.Count), or nil
	size  func(int)      // records a compared input's length (Run.Size), or nil
}

func newChecker(impl Impl, cfg *equiv.Config, count func(int)) *checker {
	return &checker{impl: impl, cfg: cfg, h: equiv.NewHarness(cfg), count: count}
}

// site is where a call's input lies: align bytes past a 64-byte boundary,
// laid out by the harness (between canaries, with spare capacity, on
// read-only pages, flush against a page where the alignment allows), or,
// if g is set, flush against one of g's guard pages (the one after it if
// tail, else the one before it).
type site struct {
	align int
	g     *equiv.Guarded
	tail  bool
}

// aligned is the site align bytes past a 64-byte boundary.
func aligned(align int) site { return site{align: align} }

// input places data, parameter 0 of k's function, at s: laid out as its
// contract says at an aligned site (equiv.Call.Bytes), or flush against
// s's guard page.
func (c *checker) input(k *equiv.Call, s site, data []byte) []byte {
	if s.g == nil {
		return k.Bytes(0, data, s.align)
	}
	return c.flush(k, s, data)
}

// flush copies data flush against s's guard page.
func (c *checker) flush(k *equiv.Call, s site, data []byte) []byte {
	k.Mark(equiv.MechGuard)
	b := s.g.Head(len(data))
	if s.tail {
		b = s.g.Tail(len(data))
	}
	copy(b, data)
	return b
}

// flaw judges the memory around and inside the slices k placed (at a
// guard page a write outside faults instead, and the suite compares what
// it placed itself): "" or " but wrote outside b" and the like.
func flaw(k *equiv.Call, s site) string {
	if s.g != nil {
		return ""
	}
	if f := k.Flaw(); f != "" {
		return " but " + f
	}
	return ""
}

// release gives the checker's buffers back (equiv.Harness.Release).
func (c *checker) release() {
	c.h.Release()
	if c.fresh != nil {
		c.fresh.Release()
	}
}

// alignOf is the alignment an input of n bytes has at s.
func alignOf(s site, n int) int {
	switch {
	case s.g == nil:
		return s.align
	case s.tail:
		return int(equiv.AddrOf(s.g.Tail(n)) % 64)
	}
	return int(equiv.AddrOf(s.g.Head(n)) % 64)
}

// where describes a guard-page site for a counterexample's Args.
func (s site) where() string {
	switch {
	case s.g == nil:
		return ""
	case s.tail:
		return "ending at a guard page"
	}
	return "starting after a guard page"
}

// sum, checksum, digest and update compare one call of the function they
// name (a nil optional function is not compared), and return the minimized
// counterexample if the implementation disagrees.
func (c *checker) sum(s site, data []byte, initial uint16) *equiv.Counterexample {
	return c.compare(s, Input{Func: "Sum", Data: data, Initial: initial})
}

func (c *checker) checksum(s site, data []byte) *equiv.Counterexample {
	return c.compare(s, Input{Func: "Checksum", Data: data})
}

func (c *checker) digest(s site, data []byte, splits []int) *equiv.Counterexample {
	return c.compare(s, Input{Func: "Digest", Data: data, Splits: splits})
}

func (c *checker) update(checksum, old, new uint16) *equiv.Counterexample {
	return c.compare(site{}, Input{Func: "Update", Update: [3]uint16{checksum, old, new}})
}

// has reports whether the implementation provides fn.
func (c *checker) has(fn string) bool {
	switch fn {
	case "Checksum":
		return c.impl.Checksum != nil
	case "Update":
		return c.impl.Update != nil
	case "Digest":
		return c.impl.New != nil
	case "Sum":
		return c.impl.Sum != nil
	}
	return c.hasHelper(fn)
}

// compare checks in at s: unless it is out of scope, it counts it, calls
// the implementation and, if that disagrees, minimizes the input.
func (c *checker) compare(s site, in Input) *equiv.Counterexample {
	if !c.has(in.Func) {
		return nil
	}
	if in.buffered() {
		in.Align = alignOf(s, len(in.Data))
	}
	if equiv.Excluded(c.cfg, in) {
		return nil
	}
	if c.count != nil {
		c.count(1)
	}
	if c.size != nil && in.buffered() {
		c.size(len(in.Data))
	}
	ce := c.call(s, in)
	if ce != nil {
		return c.minimize(s, in, ce)
	}
	if !in.buffered() || s.g != nil {
		return nil
	}
	// Now and then, the same call again at the same address with other
	// contents (equiv.Again).
	ce, again := equiv.Again(c.h, in, vary, func(v Input) *equiv.Counterexample { return c.call(s, v) })
	if again && c.count != nil {
		c.count(1)
	}
	if ce != nil {
		return c.reused(s, in, ce)
	}
	return nil
}

// reused reports ce, the failure of in varied (vary) and checked again at
// the address where in had just passed. If the varied input fails in
// buffers elsewhere too, it is an input like any other, minimized; else
// what failed is the second call at one address, which no single input
// replays.
func (c *checker) reused(s site, in Input, ce *equiv.Counterexample) *equiv.Counterexample {
	v, _ := vary(in)
	if c.fresh == nil {
		c.fresh = equiv.NewHarness(c.cfg)
	}
	c.h, c.fresh = c.fresh, c.h
	alone := c.call(s, v)
	c.h, c.fresh = c.fresh, c.h
	if alone != nil {
		return c.minimize(s, v, alone)
	}
	ce.Args += fmt.Sprintf(" (at the address where %x had just passed: the same call with other contents)", in.Data)
	ce.FuzzTarget, ce.FuzzArgs = "", nil
	return ce
}

// vary returns in with other contents of the same length, each octet
// complemented, and every other argument the same: an implementation
// that remembers a result by its arguments and its buffer's address
// answers the old one.
func vary(in Input) (Input, bool) {
	v := in
	v.Data = make([]byte, len(in.Data))
	for i, b := range in.Data {
		v.Data[i] = ^b
	}
	return v, len(in.Data) > 0
}

// call runs in.Func on in at s and returns the disagreement, not minimized,
// or nil.
func (c *checker) call(s site, in Input) *equiv.Counterexample {
	switch in.Func {
	case "Sum":
		sum := func(b []byte) uint16 { return c.impl.Sum(b, in.Initial) }
		return c.callWord(s, in, sum, ref.Sum(in.Data, in.Initial))
	case "Checksum":
		return c.callWord(s, in, c.impl.Checksum, ref.Checksum(in.Data))
	case "Digest":
		return c.callDigest(s, in)
	case "Update":
		return c.callUpdate(in)
	}
	return c.callHelper(s, in)
}

// callWord calls f, Sum or Checksum, on the copy of in.Data at s and
// judges its result against want: it must not panic (the reference never
// does), must return want, and must leave its input and the memory around
// it alone.
func (c *checker) callWord(s site, in Input, f func([]byte) uint16, want uint16) *equiv.Counterexample {
	k := c.h.Call(contract(in.Func))
	defer k.End()
	b := c.input(k, s, in.Data)
	var got uint16
	p := k.Do(func() { got = f(b) })
	bad := ""
	switch {
	case !c.cfg.SamePanic(equiv.PanicValue(p), nil), got != want:
		// The result is wrong: no more to say.
	case s.g != nil && !bytes.Equal(b, in.Data):
		bad = " but modified b"
	default:
		if bad = flaw(k, s); bad == "" {
			return nil
		}
	}
	return mismatch(s, in, fmt.Sprintf("%#04x%s", got, bad), fmt.Sprintf("%#04x", want), p)
}

// callUpdate calls Update on in.Update. Where a field of 0xFFFF is
// updated with old == new, the reference returns it as it is (RFC 1624
// errata 4782) and Eqn. 3 gives 0x0000: either is accepted
// (docs/equivalence.md, "RFC 1624 on an all-zero sum").
func (c *checker) callUpdate(in Input) *equiv.Counterexample {
	u := in.Update
	want := ref.Update(u[0], u[1], u[2])
	var got uint16
	c.h.Note(cUpdate)
	p := equiv.Catch(func() { got = c.impl.Update(u[0], u[1], u[2]) })
	if c.cfg.SamePanic(equiv.PanicValue(p), nil) && (got == want || got == 0x0000 && unchangedFFFF(u)) {
		return nil
	}
	wants := fmt.Sprintf("%#04x", want)
	if unchangedFFFF(u) {
		wants += " (or Eqn. 3's 0x0000)"
	}
	return mismatch(site{}, in, fmt.Sprintf("%#04x", got), wants, p)
}

// unchangedFFFF reports whether an Update of (checksum, old, new) leaves a
// field of 0xFFFF with nothing changed: there Eqn. 3 gives 0x0000 and the
// reference, after RFC 1624 errata 4782, 0xFFFF.
func unchangedFFFF(u [3]uint16) bool { return u[0] == 0xffff && u[1] == u[2] }

// callDigest feeds the copy of in.Data at s to a new Digest in the pieces
// in.Splits delimits and judges what it reports.
func (c *checker) callDigest(s site, in Input) *equiv.Counterexample {
	want := ref.Sum(in.Data, 0)
	k := c.h.Call(cWrite)
	defer k.End()
	b := c.input(k, s, in.Data)
	var problem string
	feed := func() { problem = c.feed(k, s, b, in.Splits, want) }
	if len(b) >= equiv.ScaleMin {
		// Every call of the Digest then runs on a state of that size.
		feed = func() { c.h.Marking(equiv.MechScale, func() { problem = c.feed(k, s, b, in.Splits, want) }) }
	}
	p := k.Do(feed)
	if p == nil && problem == "" {
		problem = strings.TrimPrefix(flaw(k, s), " but ")
	}
	if c.cfg.SamePanic(equiv.PanicValue(p), nil) && problem == "" {
		return nil
	}
	return mismatch(s, in, problem, fmt.Sprintf("Sum16() = %#04x", want), p)
}

// newDigest returns a new Digest, noting the call.
func (c *checker) newDigest() Digest {
	c.h.Note(cNew)
	return c.impl.New()
}

// sum16 returns d's Sum16, noting the call.
func (c *checker) sum16(d Digest) uint16 {
	c.h.Note(cSum16)
	return d.Sum16()
}

// feed writes b (placed by k) to a new Digest in the pieces splits
// delimits, after garbage and a Reset (no state may leak through Reset),
// overwriting each piece once Write has returned (a Digest must not keep
// a view of it), and checks what hash.Hash promises of it, then the
// checksum (digestContract); it describes the first problem, or returns
// "".
func (c *checker) feed(k *equiv.Call, s site, b []byte, splits []int, want uint16) string {
	d := c.newDigest()
	if !c.cfg.Relaxed("checksum-digest-hash-contract") {
		d.Write([]byte{0xFF, 0x01, 0x7F})
		c.h.Note(cReset)
		d.Reset()
		if got := c.sum16(d); got != 0 {
			return fmt.Sprintf("Sum16() after Reset = %#04x, want 0x0000", got)
		}
	}
	prev := 0
	for _, end := range append(slices.Clone(splits), len(b)) {
		if n, err := d.Write(b[prev:end]); n != end-prev || err != nil {
			return fmt.Sprintf("Write(%d bytes) = %d, %v", end-prev, n, err)
		}
		c.poison(k, s, b, prev, end)
		prev = end
	}
	if got := c.sum16(d); got != want {
		return fmt.Sprintf("Sum16() = %#04x", got)
	}
	return c.digestContract(d, len(b), want)
}

// digestContract checks, on a Digest that has been written n bytes summing
// to want, the rest of hash.Hash's contract: Sum appends the checksum to
// its argument (in place when it has room, placed with the append
// schedule's capacities) and leaves the state alone, so that Sum16 is
// unchanged and more can be written; what Sum(nil) returns is the
// caller's to keep (it must not change when the Digest goes on); Size is
// 2 and BlockSize positive; Reset starts over. It describes the first
// problem, or returns "".
func (c *checker) digestContract(d Digest, n int, want uint16) string {
	if c.cfg.Relaxed("checksum-digest-hash-contract") {
		return ""
	}
	// The prefix's length and alignment move with n, so that over the
	// lengths every spare capacity of the append schedule meets every
	// edge (equiv.Call.Append).
	if p := c.sumInto(d, bytes.Repeat([]byte{0xEE}, n>>6&7), (n+1)&63, want); p != "" {
		return p
	}
	// And every time, 7 octets at alignment 55: 8 octets of room, which
	// end at read-only octets 2 past the appended two (equiv.Edge).
	if p := c.sumInto(d, bytes.Repeat([]byte{0xEE}, 7), 55, want); p != "" {
		return p
	}
	c.h.Note(cSize)
	c.h.Note(cBlockSize)
	if d.Size() != 2 || d.BlockSize() < 1 {
		return fmt.Sprintf("Size() = %d, BlockSize() = %d, want 2 and at least 1", d.Size(), d.BlockSize())
	}
	if again := c.sum16(d); again != want {
		return fmt.Sprintf("Sum16 after Sum = %#04x, want %#04x", again, want)
	}
	if p := c.keepSum(d, want, "Sum(nil)"); p != "" {
		return p
	}
	d.Write([]byte{0x01})
	more := ref.Combine(want, 0x0100, n)
	if got := c.sum16(d); got != more {
		return fmt.Sprintf("Sum16 after Sum and Write([01]) = %#04x, want %#04x", got, more)
	}
	if p := c.keepSum(d, more, "Sum(nil) after Write([01])"); p != "" {
		return p
	}
	c.h.Note(cReset)
	d.Reset()
	d.Write([]byte{0x12, 0x34})
	if got := c.sum16(d); got != 0x1234 {
		return fmt.Sprintf("Sum16 after Reset and Write([12 34]) = %#04x, want 0x1234", got)
	}
	return ""
}

// sumInto checks d.Sum(b) on a copy of prefix placed at align as an
// append (equiv.Call.Append): the checksum of want appended, in place
// when the room suffices, with prefix and the memory past the two
// appended octets left alone. It describes a problem, or returns "".
func (c *checker) sumInto(d Digest, prefix []byte, align int, want uint16) string {
	k := c.h.Call(cDigestSum)
	defer k.End()
	b := k.Append(0, prefix, align, 2)
	wantSum := append(slices.Clone(prefix), byte(^want>>8), byte(^want))
	sum := d.Sum(b)
	switch {
	case !bytes.Equal(sum, wantSum):
		return fmt.Sprintf("Sum(%x %s) = %x, want %x", prefix, k.Layout(0), sum, wantSum)
	case cap(b)-len(b) >= 2 && len(b) > 0 && &sum[0] != &b[0]:
		return fmt.Sprintf("Sum(%x %s) did not append in place", prefix, k.Layout(0))
	}
	if f := k.Flaw(); f != "" {
		return fmt.Sprintf("Sum(%x %s) %s", prefix, k.Layout(0), f)
	}
	return ""
}

// keepSum checks d.Sum(nil) against the checksum of want and keeps it
// alive (equiv.Call.Keep): it describes a wrong result, or an earlier
// Sum(nil) result that changed since it was returned, or returns "".
func (c *checker) keepSum(d Digest, want uint16, call string) string {
	k := c.h.Call(cDigestSum)
	defer k.End()
	wantSum := []byte{byte(^want >> 8), byte(^want)}
	own := d.Sum(nil)
	if !bytes.Equal(own, wantSum) {
		return fmt.Sprintf("%s = %x, want %x", call, own, wantSum)
	}
	ce := k.Keep(own, func(now []byte) *equiv.Counterexample {
		return &equiv.Counterexample{Got: fmt.Sprintf("%s returned %x, which became %x as the Digests went on: it is not the caller's", call, wantSum, now)}
	})
	if ce != nil {
		return ce.Got
	}
	return ""
}

// poison overwrites b[i:j], the input placed at s, once a call that must
// not keep it has returned.
func (c *checker) poison(k *equiv.Call, s site, b []byte, i, j int) {
	if s.g == nil {
		k.Poison(0, i, j)
		return
	}
	equiv.PoisonBytes(b[i:j])
}

// mismatch is the counterexample of in at s, on which the implementation
// returned got (or panicked with p) and the reference want.
func mismatch(s site, in Input, got, want string, p *equiv.Panic) *equiv.Counterexample {
	ce := &equiv.Counterexample{
		Func:       in.Func,
		Input:      bytes.Clone(in.Data),
		Args:       in.args(s),
		Got:        got,
		Want:       want,
		Stack:      equiv.StackOf(p),
		FuzzTarget: fuzzName,
		FuzzArgs:   in.fuzzArgs(),
	}
	if p != nil {
		ce.Got = fmt.Sprintf("panic(%v)", p.Value)
	}
	return ce
}

// args renders in's coordinates other than Data, and where it lay.
func (in Input) args(s site) string {
	var a string
	switch in.Func {
	case "Sum":
		a = fmt.Sprintf("initial=%#04x %s", in.Initial, in.layout(s))
	case "Checksum":
		a = in.layout(s)
	case "Digest":
		a = fmt.Sprintf("%s splits=%v", in.layout(s), in.Splits)
	case "Update", "UpdateUDP", "UpdateUDP6":
		u := in.Update
		a = fmt.Sprintf("checksum=%#04x old=%#04x new=%#04x", u[0], u[1], u[2])
	default:
		a = in.helperArgs(s)
	}
	if w := s.where(); w != "" {
		a += " " + w
	}
	return a
}

// layout describes where in.Data lay: its alignment and, at an aligned
// site, its spare capacity or nil-ness, and the page it lay flush against
// (equiv.LayoutFor, a function of its length and alignment that a replay
// reproduces).
func (in Input) layout(s site) string {
	if s.g != nil {
		return fmt.Sprintf("align=%d", in.Align)
	}
	acc, w := equiv.Reads, 0
	if in.Func == "Put" {
		acc, w = equiv.WritesPrefix, 2
	}
	lay := equiv.LayoutFor(acc, len(in.Data), in.Align, w)
	lay.ReadOnly = false // every input is: the contract says which
	return lay.String()
}

// fuzzArgs returns in as the arguments of FuzzChecksum, or nil if the plan
// cannot encode it (a Digest of 2^32 bytes or more).
// The helpers' inputs use the plan's helper section (see decodePlan), after
// an update triple of zeros where in has none.
func (in Input) fuzzArgs() []any {
	p := plan{align: in.Align}
	switch in.Func {
	case "Sum", "Checksum":
	case "Digest":
		if uint64(len(in.Data)) > math.MaxUint32 {
			return nil
		}
		p.splits = in.Splits
	case "Update":
		p.update = &in.Update
	default:
		p = in.helperPlan()
	}
	initial := uint16(0)
	switch in.Func {
	case "Sum", "Combine", "FinishUDP":
		initial = in.Initial
	}
	return []any{append([]byte{}, in.Data...), initial, encodePlan(p)}
}
