package utf8validtest

import (
	"bytes"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// lean checks the tens of millions of short texts of threeOctets,
// fourOctets and characterSplits at a few hundred nanoseconds each. It
// calls the implementation through the harness as compare does (placed as
// each function's contract says, each piece poisoned once written, one
// Validator reused across every Reset), but under one recover per batch
// rather than one per call, and takes
// the reference's verdict from the text and the octet after it alone:
// ASCII around a text cannot change it, because an ASCII octet is a whole
// character, accepted exactly when no character is under way, and the
// first one after an incomplete character is where the text fails. A
// disagreement is handed to compare, which runs the reference on the whole
// input and minimizes it.
type lean struct {
	c       *checker
	r       *equiv.Run
	v       Validator    // reused, Reset between texts
	u       Unmasker     // v, if it is one
	vs      [4]Validator // v and three more, for splits
	scratch []byte
	wire    []byte
	// ins are the inputs of the text under way: a Validator split at
	// each of up to four points (splits; the first alone for stream),
	// Valid and Unmask; cuts holds their splits. They live here, built
	// in place, where copying an Input per call to record the one in
	// flight was a tenth of the method's time.
	ins  [6]Input
	cuts [6][1]int
	cur  int         // the index in ins of the input in flight, for a panic
	k    *equiv.Call // its call, ended if the implementation panics
	n    int         // comparisons not yet counted
}

// The slots of lean.ins past the splits'.
const (
	slotValid  = 4
	slotUnmask = 5
)

// input builds the input of fn in slot: full at align, split at cut (but
// Valid's).
func (l *lean) input(slot int, fn string, full []byte, align, cut int) *Input {
	in := &l.ins[slot]
	*in = Input{Func: fn, Text: full, Align: align}
	if fn != "Valid" {
		l.cuts[slot][0] = cut
		in.Splits = l.cuts[slot][:]
	}
	return in
}

// batch runs f, which checks many texts, under one recover (a recover per
// call was a third of the cost): a panic of the implementation is the
// input in flight's, which compare then checks and reports. Comparisons
// are counted when f returns, so that no checkpoint (which may unwind the
// method) runs inside it.
func (l *lean) batch(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			if l.k != nil {
				l.k.End()
				l.k = nil
			}
			err = l.full(l.ins[l.cur])
		}
		l.r.Count(l.n)
		l.n = 0
	}()
	return f()
}

func (c *checker) newLean(r *equiv.Run) *lean {
	l := &lean{c: c, r: r, scratch: make([]byte, 4+2*64), wire: make([]byte, 4+2*64)}
	if c.impl.NewValidator != nil {
		l.v = c.newValidator()
		l.u, _ = l.v.(Unmasker)
		l.vs[0] = l.v
		for i := 1; i < len(l.vs); i++ {
			l.vs[i] = c.newValidator()
		}
	}
	return l
}

// leanWant is the reference's verdict on a text in its context: where it
// fails (-1 if it does not), and Close's error.
type leanWant struct {
	failAt int
	close  error
}

// want judges text with before ASCII octets before it and after after it.
func want(text []byte, before, after int) leanWant {
	var v ref.Validator
	n, err := v.Write(text)
	if err == nil && after > 0 {
		if _, err = v.Write([]byte{'b'}); err != nil {
			n = len(text)
		}
	}
	if err != nil {
		return leanWant{failAt: before + n, close: ref.ErrInvalid}
	}
	return leanWant{failAt: -1, close: v.Close()}
}

// text checks text, number i of its enumeration, in its context: Valid,
// and a Validator fed it in two pieces split inside it (after octet 1 or
// 2, and so on, by i); each comparison counted. Both are given one
// placement of the text, laid out as Write's contract says, which is
// Valid's too (read-only, the same layout at the same alignment): Valid
// is called on it first, noted under its own contract, then the
// Validator fed it. Placing it once for both costs less than the
// harness's bookkeeping for a second placement, and places nothing
// differently.
func (l *lean) text(text []byte, i int) error {
	before, after, align := context(i)
	full := inContext(l.scratch, text, before, after)
	w := want(text, before, after)
	l.r.Size(len(full))
	s := before + 1 + i%(len(text)-1)
	vin := l.input(slotValid, "Valid", full, align, 0)
	switch {
	case l.v == nil:
		if equiv.Excluded(l.c.cfg, *vin) {
			return nil
		}
		if !l.valid(w) {
			return l.full(*vin)
		}
		l.n++
		return nil
	case l.c.impl.Valid == nil || equiv.Excluded(l.c.cfg, *vin):
		return l.stream(full, align, s, w)
	}
	h := l.c.h
	l.cur = slotValid
	k := h.Call(cWrite)
	l.k = k
	b := k.Bytes(0, full, align)
	h.Note(cValid)
	validOK := l.c.impl.Valid(b) == (w.failAt < 0 && w.close == nil)
	sin := l.input(0, "Validator", full, align, s)
	streamed := !equiv.Excluded(l.c.cfg, *sin)
	streamOK := true
	if streamed {
		l.cur = 0
		streamOK = l.feed(k, b, s, w)
	}
	flawed := k.Flaw() != ""
	k.End()
	l.k = nil
	switch {
	case !validOK || flawed:
		return l.full(*vin, *sin)
	case !streamOK:
		return l.full(*sin)
	}
	l.n++
	if streamed {
		l.n++
	}
	return nil
}

// char checks a character's encoding, number i of its enumeration, in its
// context: a Validator fed it in two pieces split at every point inside
// it and just after it (the next Write then starts after a whole
// character, its last octets continuations: splits), Unmask split at one
// of them, and a Validator fed it with its last octet replaced by ASCII
// (0x7F) or by an octet that starts no character (0xC0), split before
// that octet.
func (l *lean) char(enc []byte, i int) error {
	before, after, align := context(i)
	full := inContext(l.scratch, enc, before, after)
	w := want(enc, before, after)
	if err := l.splits(full, align, before, len(enc), w); err != nil {
		return err
	}
	if l.u != nil {
		if err := l.unmask(full, align, before+1+i%(len(enc)-1), keyOf(i), i&3, w); err != nil {
			return err
		}
	}
	last := before + len(enc) - 1
	keep := full[last]
	full[last] = [2]byte{0x7f, 0xc0}[i&1]
	enc = full[before : before+len(enc)]
	err := l.stream(full, align, last, want(enc, before, after))
	full[last] = keep
	return err
}

// splits checks a character of n octets at full[before:], split at each
// point s = 1..n past before, each split fed to a Validator of its own
// (l.vs[s-1], reused, Reset), all from one placement of the text: every
// Validator writes its first piece; then, for each split in increasing
// order, the text before it is overwritten (a Validator that kept a view
// of its first piece reads the overwritten octets) and its Validator
// writes the rest, which nothing has overwritten yet. Each Validator is
// fed as a Validator of its own fed alone would be; the text is placed
// once, where one placement per split made the harness's bookkeeping a
// quarter of the exhaustive method's time.
func (l *lean) splits(full []byte, align, before, n int, w leanWant) error {
	var live [4]bool
	var first [4]struct {
		n   int
		err error
	}
	h := l.c.h
	k := h.Call(cWrite)
	l.k = k
	b := k.Bytes(0, full, align)
	count := 0
	for s := range n {
		in := l.input(s, "Validator", full, align, before+s+1)
		if live[s] = !equiv.Excluded(l.c.cfg, *in); live[s] { // and in flight
			count++
			l.cur = s
			h.Note(cReset)
			l.vs[s].Reset()
			first[s].n, first[s].err = l.vs[s].Write(b[:before+s+1])
		}
	}
	bad, poisoned := -1, 0
	for s := range n {
		if !live[s] {
			continue
		}
		cut := before + s + 1
		k.Poison(0, poisoned, cut)
		poisoned = cut
		l.cur = s
		equiv.OutOfScope(l.c.cfg, l.ins[s]) // in flight
		n2, e2 := l.vs[s].Write(b[cut:])
		h.Note(cClose)
		ok := l.c.cfg.SameError(l.vs[s].Close(), w.close) && l.pieces(len(b), cut, w, first[s].n, first[s].err, n2, e2)
		if !ok && bad < 0 {
			bad = s
		}
	}
	flawed := k.Flaw() != ""
	k.End()
	l.k = nil
	switch {
	case bad >= 0:
		return l.full(l.ins[bad])
	case flawed:
		return l.full(l.ins[:n]...)
	}
	l.n += count
	return nil
}

// stream checks the reused Validator, Reset, on full split at s.
func (l *lean) stream(full []byte, align, s int, w leanWant) error {
	in := l.input(0, "Validator", full, align, s)
	if equiv.Excluded(l.c.cfg, *in) {
		return nil
	}
	l.cur = 0
	k := l.c.h.Call(cWrite)
	l.k = k
	b := k.Bytes(0, full, align)
	ok := l.feed(k, b, s, w) && k.Flaw() == ""
	k.End()
	l.k = nil
	if !ok {
		return l.full(*in)
	}
	l.n++
	return nil
}

// feed feeds b, the text k placed, to the reused Validator, Reset, in
// two Writes split at s, overwriting the first piece once written, and
// reports whether the Writes and Close returned what w says.
func (l *lean) feed(k *equiv.Call, b []byte, s int, w leanWant) bool {
	h := l.c.h
	h.Note(cReset)
	l.v.Reset()
	n1, e1 := l.v.Write(b[:s])
	k.Poison(0, 0, s)
	n2, e2 := l.v.Write(b[s:])
	h.Note(cClose)
	return l.c.cfg.SameError(l.v.Close(), w.close) && l.pieces(len(b), s, w, n1, e1, n2, e2)
}

// unmask checks the reused Validator, Reset, unmasking full masked with
// key from pos, in two pieces split at s: each piece must be the text
// once unmasked, and is overwritten then.
func (l *lean) unmask(full []byte, align, s int, key [4]byte, pos int, w leanWant) error {
	in := l.input(slotUnmask, "Unmask", full, align, s)
	in.Key, in.Pos = key, pos
	if equiv.Excluded(l.c.cfg, *in) {
		return nil
	}
	wire := append(l.wire[:0], full...)
	mask(wire, key, pos)
	l.cur = slotUnmask
	h := l.c.h
	k := h.Call(cUnmask)
	l.k = k
	b := k.Bytes(0, wire, align)
	h.Note(cReset)
	l.v.Reset()
	next1, n1, e1 := l.u.Unmask(b[:s], key, pos)
	ok := bytes.Equal(b[:s], full[:s])
	k.Poison(0, 0, s)
	next2, n2, e2 := l.u.Unmask(b[s:], key, next1)
	ok = ok && bytes.Equal(b[s:], full[s:])
	h.Note(cClose)
	ok = ok && next1 == (pos+s)&3 && next2 == (pos+len(b))&3 && l.c.cfg.SameError(l.v.Close(), w.close) &&
		l.pieces(len(b), s, w, n1, e1, n2, e2) && k.Flaw() == ""
	k.End()
	l.k = nil
	if !ok {
		return l.full(*in)
	}
	l.n++
	return nil
}

// valid reports whether Valid agrees with w on the input in slotValid,
// placed for it alone (an implementation without Validators).
func (l *lean) valid(w leanWant) bool {
	in := &l.ins[slotValid]
	l.cur = slotValid
	k := l.c.h.Call(cValid)
	l.k = k
	b := k.Bytes(0, in.Text, in.Align)
	ok := l.c.impl.Valid(b) == (w.failAt < 0 && w.close == nil) && k.Flaw() == ""
	k.End()
	l.k = nil
	return ok
}

// pieces reports whether two calls on an n-octet text split at s
// returned what w says.
func (l *lean) pieces(n, s int, w leanWant, n1 int, e1 error, n2 int, e2 error) bool {
	cfg := l.c.cfg
	switch {
	case w.failAt < 0:
		return n1 == s && e1 == nil && n2 == n-s && e2 == nil
	case w.failAt < s:
		return n1 == w.failAt && cfg.SameError(e1, ref.ErrInvalid) && n2 == 0 && cfg.SameError(e2, ref.ErrInvalid)
	}
	return n1 == s && e1 == nil && n2 == w.failAt-s && cfg.SameError(e2, ref.ErrInvalid)
}

// full compares each of ins in turn on compare's path, which returns
// the minimized counterexample of the first that fails; if every one
// agrees, the lean verdict was wrong, which is the suite's bug.
func (l *lean) full(ins ...Input) error {
	for _, in := range ins {
		in.Text, in.Splits = bytes.Clone(in.Text), append([]int(nil), in.Splits...)
		if ce, _ := l.c.compare(in); ce != nil {
			return l.r.Fail(ce)
		}
	}
	return l.r.Errorf("the lean check of %s on %x disagrees, the full one agrees: the suite is wrong", ins[0].Func, ins[0].Text)
}
