package quictest

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// The appends, AppendVarint and AppendVarintWithLen: each prefix is laid
// out by the harness (equiv.Call.Append) with the room of one class of
// the append schedule, flush against read-only octets or an unmapped page
// where the alignment allows, and judged by it: the appended octets only
// may be written, in place when the room suffices, nothing past them or
// before them, and a prefix without room not at all.

// appendVarint compares AppendVarint(prefix, v): the bytes, the prefix
// kept, or the panic (the reference panics above 2^62-1). The prefix is
// laid out with room (one of the append schedule's roomy classes) when
// spare is set, and with none (or one octet less than the append needs)
// otherwise. It returns the minimized counterexample, if any, and the
// number of comparisons made (2 when the harness checked it again at the
// same address with other contents).
func (c *checker) appendVarint(prefix []byte, v uint64, spare bool) (*equiv.Counterexample, int) {
	in := Input{Func: funcAppendVarint, Data: prefix, Value: v}
	return c.compareAgain(in, func(t Input) *equiv.Counterexample { return c.appendAt(t.Data, t.Value, spare) })
}

// appendWithLen compares AppendVarintWithLen(prefix, v, n): the bytes,
// the prefix kept, or the panic (the reference panics for n not 1, 2, 4
// or 8, then for v not fitting). The prefix is laid out with room when
// spare is set (the result must then be written in place, and nothing
// after it: that is how a reserved field is filled in later), and with
// none otherwise. It returns the minimized counterexample, if any, and the
// number of comparisons made.
func (c *checker) appendWithLen(prefix []byte, v uint64, n int, spare bool) (*equiv.Counterexample, int) {
	in := Input{Func: funcAppendVarintWithLen, Data: prefix, Value: v, Len: n}
	return c.compareAgain(in, func(t Input) *equiv.Counterexample { return c.withLenAt(t.Data, t.Value, n, spare, laidOut) })
}

// roomy are the classes of the append schedule (equiv.Call.Append, by
// (len + 3·align) mod 16) in the order a spare append takes them, from
// one that moves with its value: exactly the octets appended, one more, 1
// to 8 octets, 31 and 64; an append without room takes class 1 (none).
var roomy = []int{0, 7, 3, 5, 4, 6, 8, 9, 13, 10, 11, 12, 14, 15}

// appendAlign returns the alignment at which a prefix of n octets, to
// which w are appended, is laid out: with no room unless spare, else with
// room for all w octets, of the class roomy gives (the first from
// roomy[v mod 14] that has room for them); of the four alignments of that
// class, the one that puts the prefix or its room flush against
// read-only octets or an unmapped page (equiv.Edge), if one does. Every
// other value (by its bit 4) prefers such an edge to the class: it takes
// the first class, in the same order, that has one. A prefix of edgeMax
// octets or more is laid out between canaries: flush against read-only
// octets, the harness's mapping is twice the prefix (both halves of an
// edge view), which at the scale method's 4 MiB (64 MiB at Standard)
// would double its memory. A function of its arguments, so that
// minimization and a replay lay an input out alike.
//
// No class has room for fewer than w octets (the schedule's one octet
// less, or 1 to w-1): the reference appends octet by octet, as Go's
// append lets it, and with room for fewer than all it writes those that
// fit into the room before it moves to a new array; the harness would
// take that for a write into a prefix that had no room.
func appendAlign(n, w int, spare bool, v uint64) int {
	turn := int(v >> 4 & 3)
	edgeFirst := turn&1 == 0
	fits := func(room int) bool { return spare && room >= max(w, 1) || !spare && room == 0 }
	start := 0
	if spare {
		start = int(v % uint64(len(roomy)))
	}
	first := -1 // a layout of the first class with room as asked
	for i := range 16 {
		idx := 1
		if spare {
			idx = roomy[(start+i)%len(roomy)]
		} else if i > 0 {
			idx = i - 1 // the schedule's others, for a layout (NoExactAppend) whose class 1 has room
		}
		a0, inClass := ((idx-n)*11%16+16)%16, -1 // 3·11 = 33 = 1 mod 16
		for m := range 4 {
			a := a0 + 16*((m+turn)%4)
			lay := equiv.LayoutFor(equiv.Appends, n, a, w)
			switch {
			case !fits(lay.Spare) || n >= edgeMax && lay.Edge != equiv.EdgeNone:
			case lay.Edge != equiv.EdgeNone && (edgeFirst || first < 0):
				return a
			case inClass < 0:
				inClass = a
			}
		}
		if first < 0 {
			first = inClass
		}
		if first >= 0 && !edgeFirst {
			return first
		}
	}
	return max(first, 0)
}

// aliases reports whether out shares b's array (starts within its
// capacity): an append made in place.
func aliases(out, b []byte) bool {
	if cap(b) == 0 || len(out) == 0 {
		return false
	}
	d := equiv.AddrOf(out) - equiv.AddrOf(b[:cap(b)])
	return d < uintptr(cap(b))
}

// keepMax is the longest result an append keeps alive (equiv.Call.Keep):
// a kept result is copied and compared again at every Keep, and the
// scale method's appends onto megabytes are compared once.
const keepMax = 4 << 10

// appendAt compares AppendVarint(prefix, v) on a copy of prefix laid out
// by the harness (appendAlign): the bytes, the prefix left as it was and
// nothing written past the appended bytes (equiv.Call.Flaw), or the same
// panic. A result in an array of its own (the prefix had no room, or the
// implementation made one) is the caller's: it is kept alive
// (equiv.Call.Keep), and must not change as later appends run.
//
// The reference's result is prefix followed by AppendVarint(nil, v): it
// appends the encoding's octets to its argument one by one, so that what
// it returns for any prefix is the prefix and the octets it returns for
// none (appendWant), and no copy of a prefix of megabytes is made for it.
func (c *checker) appendAt(prefix []byte, v uint64, spare bool) *equiv.Counterexample {
	tail, wantP := callAppend(quic.AppendVarint, nil, v, nil)
	w := len(tail)
	align := appendAlign(len(prefix), w, spare, v)
	k := c.h.Call(cAppendVarint)
	defer k.End()
	b := c.appendTo(k, prefix, align, w, spare)
	got, gotP := callAppend(c.impl.AppendVarint, b, v, k)
	ce := func(p *equiv.Panic, problem string, now []byte) *equiv.Counterexample {
		want := appendWant(prefix, tail, wantP)
		gotS, wantS := hexPair(got, want)
		switch {
		case now != nil:
			gotS = fmt.Sprintf("%x, which later became %x as more appends ran: not the caller's", want, now)
		case problem != "":
			gotS += " but " + problem
		}
		return appendCE(prefix, v, appendedAs(prefix, align, w, spare), spare, p, orPanicS(gotS, p), orPanicS(wantS, wantP))
	}
	switch {
	case !c.agree(gotP, wantP, appended(got, prefix, tail, wantP)):
		return ce(gotP, "", nil)
	case k.Flaw() != "":
		return ce(nil, k.Flaw(), nil)
	case gotP != nil || aliases(got, b) || len(got) > keepMax:
		return nil
	}
	return k.Keep(got, func(now []byte) *equiv.Counterexample { return ce(nil, "", now) })
}

// appended reports whether out is prefix followed by tail, the octets the
// reference appends to nothing (and is not nil, as the reference's
// result is not unless it panicked: p).
func appended(out, prefix, tail []byte, p *equiv.Panic) bool {
	return (out == nil) == (p != nil) && len(out) == len(prefix)+len(tail) &&
		bytes.Equal(out[:len(prefix)], prefix) && bytes.Equal(out[len(prefix):], tail)
}

// appendWant is the reference's result of an append to prefix of the
// octets tail it appends to nothing (nil if it panicked: p).
func appendWant(prefix, tail []byte, p *equiv.Panic) []byte {
	if p != nil {
		return nil
	}
	return append(bytes.Clone(prefix), tail...)
}

// edgeMax is the length from which appendAlign lays prefixes out away
// from pages.
const edgeMax = 1 << 20

// appendTo places prefix for an append of w octets at align
// (equiv.Call.Append), except an empty prefix without room, which is nil:
// the append schedule never lays a slice appended to out as nil, and
// AppendVarint(nil, v) is how most callers start a buffer.
func (c *checker) appendTo(k *equiv.Call, prefix []byte, align, w int, spare bool) []byte {
	if len(prefix) == 0 && !spare {
		return nil
	}
	return k.Append(0, prefix, align, w)
}

// appendedAs describes where appendTo placed prefix, for a
// counterexample.
func appendedAs(prefix []byte, align, w int, spare bool) string {
	if len(prefix) == 0 && !spare {
		return "nil"
	}
	return placedAs(equiv.Appends, len(prefix), align, w)
}

func callAppend(f func([]byte, uint64) []byte, b []byte, v uint64, k *equiv.Call) (out []byte, p *equiv.Panic) {
	p = run(k, func() { out = f(b, v) })
	return out, p
}

// appendCE is a counterexample of AppendVarint(prefix, v), where describes
// the prefix's layout. CheckInput appends the value its datagram decodes
// to, so a value appended to nothing without room is reproduced by
// FuzzQUICHeader.
func appendCE(prefix []byte, v uint64, where string, spare bool, p *equiv.Panic, got, want string) *equiv.Counterexample {
	ce := &equiv.Counterexample{
		Func:  funcAppendVarint,
		Input: bytes.Clone(prefix),
		Args:  fmt.Sprintf("v=%#x %s", v, where),
		Got:   got,
		Want:  want,
		Stack: equiv.StackOf(p),
	}
	if len(prefix) == 0 && v <= quic.MaxVarint && !spare {
		ce.FuzzTarget, ce.FuzzArgs = targetHeader, []any{quic.AppendVarint(nil, v), 0}
	}
	return ce
}

// withLenAt compares AppendVarintWithLen(prefix, v, n) of the reference
// (prefix and the octets it appends to nothing, as appendAt's) with the
// Impl's on a copy of prefix laid out by the harness
// (appendAlign) or, at a guard site, whose buffer has room for exactly
// the octets appended and ends at (or starts after) an unmapped page: the
// bytes, or the same panic; the prefix left as it was and nothing written
// outside the appended octets; with room, the octets written in place.
// A result in an array of its own is kept alive, as appendAt's.
func (c *checker) withLenAt(prefix []byte, v uint64, n int, spare bool, s site) *equiv.Counterexample {
	tail, wantP := callAppendLen(quic.AppendVarintWithLen, nil, v, n, nil)
	w := len(tail)
	k := c.h.Call(cWithLen)
	defer k.End()
	var b []byte
	align := -1
	if s.g == nil {
		align = appendAlign(len(prefix), w, spare, v)
		b = c.appendTo(k, prefix, align, w, spare)
	} else {
		k.Mark(equiv.MechGuard)
		b = flush(s, append(bytes.Clone(prefix), make([]byte, w)...))[:len(prefix)]
	}
	got, gotP := callAppendLen(c.impl.AppendVarintWithLen, b, v, n, k)
	ce := func(p *equiv.Panic, problem string, now []byte) *equiv.Counterexample {
		want := appendWant(prefix, tail, wantP)
		gotS, wantS := hexPair(got, want)
		switch {
		case now != nil:
			gotS = fmt.Sprintf("%x, which later became %x as more appends ran: not the caller's", want, now)
		case problem != "":
			gotS += " but " + problem
		}
		where := ""
		if align >= 0 {
			where = appendedAs(prefix, align, w, spare)
		}
		return withLenCE(prefix, v, n, where, spare, p, orPanicS(gotS, p), orPanicS(wantS, wantP))
	}
	if !c.agree(gotP, wantP, appended(got, prefix, tail, wantP)) {
		return ce(gotP, "", nil)
	}
	if problem := c.withLenFlaw(k, s, prefix, b, got, gotP == nil && w > 0); problem != "" {
		return ce(nil, problem, nil)
	}
	if gotP != nil || aliases(got, b) || len(got) > keepMax {
		return nil
	}
	return k.Keep(got, func(now []byte) *equiv.Counterexample { return ce(nil, "", now) })
}

// withLenFlaw returns what is wrong with how out, AppendVarintWithLen's
// result on b (prefix's copy, placed by k at s), used b's array: the
// memory around and inside b as the harness judges it (at a guard site,
// b's octets as placed), and, when the room sufficed for an append that
// did not panic, out not written in place.
func (c *checker) withLenFlaw(k *equiv.Call, s site, prefix, b, out []byte, appended bool) string {
	if s.g == nil {
		if f := k.Flaw(); f != "" {
			return f
		}
	} else if !bytes.Equal(b, prefix) {
		return "modified b"
	}
	if appended && cap(b)-len(b) >= len(out)-len(b) && !(aliases(out, b) && equiv.AddrOf(out) == equiv.AddrOf(b[:cap(b)])) {
		return "not written in place although the buffer had room"
	}
	return ""
}

func callAppendLen(f func([]byte, uint64, int) []byte, b []byte, v uint64, n int, k *equiv.Call) (out []byte, p *equiv.Panic) {
	p = run(k, func() { out = f(b, v, n) })
	return out, p
}

// withLenCE is a counterexample of AppendVarintWithLen(prefix, v, n),
// where describes the prefix's layout ("" at a guard site, which the
// caller notes). CheckInput appends the value its datagram decodes at
// every width it fits onto nothing, so those are reproduced by
// FuzzQUICHeader.
func withLenCE(prefix []byte, v uint64, n int, where string, spare bool, p *equiv.Panic, got, want string) *equiv.Counterexample {
	ce := &equiv.Counterexample{
		Func:  funcAppendVarintWithLen,
		Input: bytes.Clone(prefix),
		Args:  strings.TrimSpace(fmt.Sprintf("v=%#x n=%d %s", v, n, where)),
		Got:   got,
		Want:  want,
		Stack: equiv.StackOf(p),
	}
	if len(prefix) == 0 && !spare && where != "" && slices.Contains(varintWidths, n) && fits(v, n) {
		ce.FuzzTarget, ce.FuzzArgs = targetHeader, []any{quic.AppendVarint(nil, v), 0}
	}
	return ce
}

// hexPair renders an append's result and the reference's: in full up to
// 64 octets; else their lengths and 32 octets from a little before the
// first where they differ, so that a megabyte result reads, and two that
// differ read differently.
func hexPair(got, want []byte) (string, string) {
	if len(got) <= 64 && len(want) <= 64 {
		return hexOf(got).String(), hexOf(want).String()
	}
	at := 0
	for at < min(len(got), len(want)) && got[at] == want[at] {
		at++
	}
	at = max(at-8, 0)
	around := func(b []byte) string {
		return fmt.Sprintf("%d octets, at %d: %x", len(b), at, b[min(at, len(b)):min(at+32, len(b))])
	}
	return around(got), around(want)
}

// orPanicS is orPanic for a result already rendered.
func orPanicS(result string, p *equiv.Panic) string {
	if p != nil {
		return showPanic(p)
	}
	return result
}

// withLenLengths are the n of AppendVarintWithLen's domain: the four
// widths, and every other class (negative, 0, between and above them).
var withLenLengths = []int{math.MinInt, -1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 16, math.MaxInt}

// withLenValues checks AppendVarintWithLen, for every width, on every
// value below 2^8 and on the 256 values below the width's limit and two
// past it (a panic each), onto a roomy buffer; the interesting values at
// every length of withLenLengths, onto an empty, a full and a roomy
// prefix; and random values of each width. A value only passes through a
// shift and an OR with the width's prefix, so its classes are the width's
// limit, taken on both sides.
func (c *checker) withLenValues(r *equiv.Run) error {
	if c.impl.AppendVarintWithLen == nil {
		return nil
	}
	count := func(ce *equiv.Counterexample, k int) error {
		if ce != nil {
			return r.Fail(ce)
		}
		r.Count(k)
		return nil
	}
	for _, w := range varintWidths {
		limit := uint64(1) << (8*w - 2)
		values := func(from, to uint64) error {
			for v := from; v < to; v++ {
				if err := count(c.appendWithLen(nil, v, w, true)); err != nil {
					return err
				}
			}
			return nil
		}
		if err := values(0, min(256, limit+2)); err != nil {
			return err
		}
		if limit > 256 {
			if err := values(max(256, limit-256), limit+2); err != nil {
				return err
			}
		}
	}
	for _, v := range interesting {
		for _, n := range withLenLengths {
			for _, prefix := range [][]byte{nil, {0xee, 0xee, 0xee}} {
				for _, spare := range []bool{false, true} {
					if err := count(c.appendWithLen(prefix, v, n, spare)); err != nil {
						return err
					}
				}
			}
		}
	}
	rng := r.Rand()
	for range equiv.Pick(r, 1<<12, 1<<16, 1<<20) {
		w := varintWidths[rng.IntN(4)]
		if err := count(c.appendWithLen([]byte{0xee}, rng.Uint64()>>(64-(8*w-2)), w, rng.IntN(2) == 0)); err != nil {
			return err
		}
	}
	return nil
}
