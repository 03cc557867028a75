package utf8validtest

import (
	"bytes"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
	"github.com/equivcheck/equivcheck/reference/websocket"
)

// lean checks the tens of millions of short texts of threeOctets,
// fourOctets and characterSplits at about a hundred nanoseconds each. It
// calls the implementation as compare does (read-only placement with the
// layout schedule, canaries, each piece poisoned once written), but takes
// the reference's verdict from the text and the octet after it alone:
// ASCII around a text cannot change it, because an ASCII octet is a whole
// character, accepted exactly when no character is under way, and the
// first one after an incomplete character is where the text fails. A
// disagreement is handed to compare, which runs the reference on the whole
// input and minimizes it.
type lean struct {
	c       *checker
	r       *equiv.Run
	v       Validator // reused, Reset between texts
	u       Unmasker  // v, if it is one
	scratch []byte
	wire    []byte
	split   [1]int
	cur     Input // the input in flight, for a panic
	n       int   // comparisons not yet counted
}

// batch runs f, which checks many texts, under one recover (a recover per
// call was a third of the cost): a panic of the implementation is the
// input in flight's, which compare then checks and reports. Comparisons
// are counted when f returns, so that no checkpoint (which may unwind the
// method) runs inside it.
func (l *lean) batch(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = l.full(l.cur)
		}
		l.r.Count(l.n)
		l.n = 0
	}()
	return f()
}

func (c *checker) newLean(r *equiv.Run) *lean {
	l := &lean{c: c, r: r, scratch: make([]byte, 4+2*64), wire: make([]byte, 4+2*64)}
	if c.impl.NewValidator != nil {
		l.v = c.impl.NewValidator()
		l.u, _ = l.v.(Unmasker)
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
// 2, and so on, by i); each comparison counted.
func (l *lean) text(text []byte, i int) error {
	before, after, align := context(i)
	full := inContext(l.scratch, text, before, after)
	w := want(text, before, after)
	l.r.Size(len(full))
	if l.c.impl.Valid != nil {
		in := Input{Func: "Valid", Text: full, Align: align}
		if !equiv.Excluded(l.c.cfg, in) {
			if !l.valid(in, w) {
				return l.full(in)
			}
			l.n++
		}
	}
	if l.v == nil {
		return nil
	}
	return l.stream(full, align, before+1+i%(len(text)-1), w)
}

// char checks a character's encoding, number i of its enumeration, in its
// context: a Validator fed it in two pieces split at every point inside
// it and just after it (the next Write then starts after a whole
// character, its last octets continuations), Unmask split at one of them, and a Validator fed it with its last
// octet replaced by ASCII (0x7F) or by an octet that starts no character
// (0xC0), split before that octet.
func (l *lean) char(enc []byte, i int) error {
	before, after, align := context(i)
	full := inContext(l.scratch, enc, before, after)
	w := want(enc, before, after)
	for s := 1; s <= len(enc); s++ {
		if err := l.stream(full, align, before+s, w); err != nil {
			return err
		}
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

// stream checks the reused Validator, Reset, on full split at s.
func (l *lean) stream(full []byte, align, s int, w leanWant) error {
	l.split[0] = s
	in := Input{Func: "Validator", Text: full, Align: align, Splits: l.split[:]}
	if equiv.Excluded(l.c.cfg, in) {
		return nil
	}
	l.cur = in
	b := l.c.buf.Input(full, align)
	l.v.Reset()
	n1, e1 := l.v.Write(b[:s])
	l.c.buf.PoisonRange(0, s)
	n2, e2 := l.v.Write(b[s:])
	ok := l.c.cfg.SameError(l.v.Close(), w.close) && l.pieces(len(b), s, w, n1, e1, n2, e2)
	if !ok || !l.c.buf.Intact() {
		return l.full(in)
	}
	l.n++
	return nil
}

// unmask checks the reused Validator, Reset, unmasking full masked with
// key from pos, in two pieces split at s.
func (l *lean) unmask(full []byte, align, s int, key [4]byte, pos int, w leanWant) error {
	l.split[0] = s
	in := Input{Func: "Unmask", Text: full, Align: align, Splits: l.split[:], Key: key, Pos: pos}
	if equiv.Excluded(l.c.cfg, in) {
		return nil
	}
	wire := append(l.wire[:0], full...)
	websocket.Mask(wire, key, pos)
	l.cur = in
	b := l.c.buf.Place(wire, align)
	l.v.Reset()
	next1, n1, e1 := l.u.Unmask(b[:s], key, pos)
	next2, n2, e2 := l.u.Unmask(b[s:], key, next1)
	ok := next1 == (pos+s)&3 && next2 == (pos+len(b))&3 && l.c.cfg.SameError(l.v.Close(), w.close) &&
		l.pieces(len(b), s, w, n1, e1, n2, e2)
	if !ok || !bytes.Equal(b, full) || !l.c.buf.Intact() {
		return l.full(in)
	}
	l.n++
	return nil
}

// valid reports whether Valid agrees with w on in.
func (l *lean) valid(in Input, w leanWant) bool {
	l.cur = in
	b := l.c.buf.Input(in.Text, in.Align)
	return l.c.impl.Valid(b) == (w.failAt < 0 && w.close == nil) && l.c.buf.Intact()
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

// full compares in on compare's path, which returns the minimized
// counterexample; if that path agrees, the lean verdict was wrong, which
// is the suite's bug.
func (l *lean) full(in Input) error {
	in.Text, in.Splits = bytes.Clone(in.Text), append([]int(nil), in.Splits...)
	ce, _ := l.c.compare(in)
	if ce == nil {
		return l.r.Errorf("the lean check of %s on %x disagrees, the full one agrees: the suite is wrong", in.Func, in.Text)
	}
	return l.r.Fail(ce)
}
