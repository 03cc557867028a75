package utf8valid

import (
	"encoding/binary"
	"math/bits"
)

// The portable kernel: a deterministic automaton over octets, with a fast
// path that skips 16 or 8 ASCII octets at a time.
//
// The automaton is a "shift DFA": state s is a bit offset (a multiple of
// 6), and dfa[o] holds, in its 6 bits at offset s, the state after octet o
// in state s. One step is then s = dfa[o] >> (s & 63): a load that does not
// depend on s, and a shift, one cycle on amd64 (SHRX, which takes the
// count mod 64 itself, so the & 63 costs nothing). Only the low 6 bits of
// s are the state; the bits above are left over from the entry.
//
// The states follow RFC 3629 §4's ABNF, as reference/utf8valid's
// alternatives do: what the partial UTF8-char still needs.
const (
	sAccept = 0  // between two UTF8-chars
	sError  = 6  // the text can no longer be valid (sticky)
	sTail1  = 12 // one UTF8-tail %x80-BF
	sTail2  = 18 // two UTF8-tail
	sTail3  = 24 // three UTF8-tail
	sE0     = 30 // after %xE0: %xA0-BF UTF8-tail
	sED     = 36 // after %xED: %x80-9F UTF8-tail
	sF0     = 42 // after %xF0: %x90-BF 2( UTF8-tail )
	sF4     = 48 // after %xF4: %x80-8F 2( UTF8-tail )
)

// dfa is the transition table, built once by buildDFA and only read after.
var dfa = buildDFA()

// buildDFA returns the transitions of RFC 3629 §4 (the UTF8-1 .. UTF8-4
// lines of the ABNF, as in reference/utf8valid's accept): every transition
// not listed goes to sError, and sError goes nowhere else.
func buildDFA() (t [256]uint64) {
	for o := range t {
		for s := sAccept; s <= sF4; s += 6 {
			t[o] |= sError << s
		}
	}
	on := func(from uint, lo, hi int, to uint64) {
		for o := lo; o <= hi; o++ {
			t[o] = t[o]&^(63<<from) | to<<from
		}
	}
	on(sAccept, 0x00, 0x7F, sAccept) // UTF8-1 = %x00-7F
	on(sAccept, 0xC2, 0xDF, sTail1)  // UTF8-2 = %xC2-DF UTF8-tail
	on(sAccept, 0xE0, 0xE0, sE0)     // UTF8-3 = %xE0 %xA0-BF UTF8-tail
	on(sAccept, 0xE1, 0xEC, sTail2)  //        / %xE1-EC 2( UTF8-tail )
	on(sAccept, 0xED, 0xED, sED)     //        / %xED %x80-9F UTF8-tail
	on(sAccept, 0xEE, 0xEF, sTail2)  //        / %xEE-EF 2( UTF8-tail )
	on(sAccept, 0xF0, 0xF0, sF0)     // UTF8-4 = %xF0 %x90-BF 2( UTF8-tail )
	on(sAccept, 0xF1, 0xF3, sTail3)  //        / %xF1-F3 3( UTF8-tail )
	on(sAccept, 0xF4, 0xF4, sF4)     //        / %xF4 %x80-8F 2( UTF8-tail )
	on(sTail1, 0x80, 0xBF, sAccept)  // UTF8-tail = %x80-BF
	on(sTail2, 0x80, 0xBF, sTail1)
	on(sTail3, 0x80, 0xBF, sTail2)
	on(sE0, 0xA0, 0xBF, sTail1)
	on(sED, 0x80, 0x9F, sTail1)
	on(sF0, 0x90, 0xBF, sTail2)
	on(sF4, 0x80, 0x8F, sTail2)
	return t
}

// step is one transition of the automaton.
func step(s uint64, o byte) uint64 {
	return dfa[o] >> (s & 63)
}

// run runs the automaton from state s over all of p and returns the state
// after it. sError is sticky, so a short text needs no test per octet:
// one at the end says whether any octet failed, and firstError finds
// which. It is written to be inlined.
func run(s uint64, p []byte) uint64 {
	for _, o := range p {
		s = dfa[o] >> (s & 63)
	}
	return s
}

// firstError runs the automaton from state s over p[i:] and returns the
// index of the first octet that leads to sError, or len(p) if none does.
func firstError(s uint64, p []byte, i int) int {
	for ; i < len(p); i++ {
		if s = step(s, p[i]); s&63 == sError {
			return i
		}
	}
	return len(p)
}

// A window holds the three octets before a point of the text, the last
// one in bits 16-23 and the first in bits 0-7, with zeros where the text
// has fewer: the context the SIMD kernels need, and what a Validator
// carries from one Write to the next. Zero octets are UTF8-1, so the
// window of the start of a text is 0, a boundary.

// window3 returns the window before p[s], taking the octets before p from
// ctx, the window before p[0].
func window3(ctx uint32, p []byte, s int) uint32 {
	switch {
	case s >= 3:
		return uint32(p[s-3]) | uint32(p[s-2])<<8 | uint32(p[s-1])<<16
	case s == 2:
		return ctx>>16 | uint32(p[0])<<8 | uint32(p[1])<<16
	case s == 1:
		return ctx>>8 | uint32(p[0])<<16
	}
	return ctx
}

// stateOf returns the automaton's state after the octets of window w, when
// the text up to them can still be valid: the last octet of w that is not
// a continuation %x80-BF starts the partial UTF8-char, if any (three
// continuations in a row end a UTF8-4 in such a text; continuations before
// the start belong to a UTF8-char that started before w and is complete).
func stateOf(w uint32) uint64 {
	s := uint64(sAccept)
	for i := 0; i < 24; i += 8 {
		o := byte(w >> i)
		switch {
		case o&0xC0 != 0x80:
			s = dfa[o] // from sAccept: a UTF8-char starts
		case s&63 != sAccept:
			s = step(s, o)
		}
	}
	return s
}

// incomplete reports whether a text that can still be valid and whose
// last three octets are w ends inside a UTF8-char: its last octet is a
// first octet of 2 or more, the one before of 3 or more, or the one
// before that of 4 (RFC 3629 §3's table of the first octets).
func incomplete(w uint32) bool {
	return byte(w>>16) >= 0xC0 || byte(w>>8) >= 0xE0 || byte(w) >= 0xF0
}

// badLead reports whether o can start no UTF8-char and continue none: a
// text whose last octet it is can no longer be valid (RFC 3629 §3: "The
// octet values C0, C1, F5 to FF never appear").
func badLead(o byte) bool {
	return o == 0xC0 || o == 0xC1 || o >= 0xF5
}

// settle turns a SIMD kernel's result s for p after window ctx into the
// exact answer: the index of the first octet at which the text can no
// longer be valid, or len(p). The kernel guarantees that the text up to
// p[s] can still be valid but for a last octet that badLead rejects (its
// checks look at an octet together with the one after it), and that if
// s < len(p) a block starting at p[s] failed its checks. The automaton
// then re-scans from p[s] only, so only invalid text pays for it.
func settle(ctx uint32, p []byte, s int) int {
	switch {
	case s > 0 && badLead(p[s-1]):
		return s - 1
	case s == len(p):
		return s
	}
	return firstError(stateOf(window3(ctx, p, s)), p, s)
}

const ascii8 = 0x8080808080808080 // the high bit of each octet of a word

// scanGeneric runs the automaton from state s over p and returns the index
// of the first octet at which the text can no longer be valid, or len(p),
// and the state after p (sError after a failure).
//
// Between UTF8-chars it skips 16 ASCII octets at a time, then 8; a word
// that holds any other octet goes through the automaton octet by octet
// from a register, and the 8 steps are checked once: a word that failed is
// run again from its first octet to find the failing one.
func scanGeneric(s uint64, p []byte) (int, uint64) {
	le := binary.LittleEndian
	q := p
	// The length tests are written > 7 and > 15 (not >= 8 and >= 16) so
	// that their boundary mutants read past the end and panic, where >= 9
	// would only hand 8 octets to the octet loop (docs/mutation.md).
	for len(q) > 7 {
		if s&63 == sAccept {
			for len(q) > 15 && (le.Uint64(q)|le.Uint64(q[8:16]))&ascii8 == 0 {
				q = q[16:]
			}
			if len(q) <= 7 {
				break
			}
		}
		w := le.Uint64(q)
		if s&63 == sAccept && w&ascii8 == 0 {
			q = q[8:]
			continue
		}
		s0 := s
		s = steps4(steps4(s, uint32(w)), uint32(w>>32))
		if s&63 == sError {
			return firstError(s0, p, len(p)-len(q)), s
		}
		q = q[8:]
	}
	for i, o := range q {
		if s = step(s, o); s&63 == sError {
			return len(p) - len(q) + i, s
		}
	}
	return len(p), s
}

// steps4 runs the automaton over the 4 octets of w, the first in the low
// bits. A word of 8 octets takes two calls, both inlined: as one function
// of eight steps (cost 93) it was over the inliner's budget, and a call
// per 8 octets of text that is not ASCII cost the generic build's Valid
// 11-21% at 24-40 and 1024 octets (docs/performance.md).
func steps4(s uint64, w uint32) uint64 {
	s = dfa[byte(w)] >> (s & 63)
	s = dfa[byte(w>>8)] >> (s & 63)
	s = dfa[byte(w>>16)] >> (s & 63)
	return dfa[w>>24] >> (s & 63)
}

// unmaskGeneric is scanGeneric fused with masking: it XORs b in place with
// the key word k (the masking key as a little-endian word rotated so that
// its low octet is b[0]'s, as Unmask computes it) and runs the automaton
// over the unmasked octets, in one pass: each word is loaded, unmasked,
// stored and checked from the register. After a failure it unmasks the
// rest of b without checking it.
func unmaskGeneric(s uint64, b []byte, k uint32) (int, uint64) {
	le := binary.LittleEndian
	k64 := uint64(k) * (1<<32 | 1)
	q := b
	for len(q) > 7 {
		w := le.Uint64(q) ^ k64
		le.PutUint64(q, w)
		if s&63 != sAccept || w&ascii8 != 0 {
			s0 := s
			s = steps4(steps4(s, uint32(w)), uint32(w>>32))
			if s&63 == sError {
				maskRest(q[8:], k64)
				return firstError(s0, b, len(b)-len(q)), s
			}
		}
		q = q[8:]
	}
	for i := range q {
		q[i] ^= byte(k64 >> (8 * i))
		if s = step(s, q[i]); s&63 == sError {
			maskRest(q[i+1:], bits.RotateLeft64(k64, -8*(i+1)))
			return len(b) - len(q) + i, s
		}
	}
	return len(b), s
}

// unmaskShort XORs b, of at most 15 octets, in place with the key word k,
// whose low octet is b[0]'s. It returns the OR x of the unmasked words, in
// which an octet that is not ASCII sets a bit of ascii8, and from 4 octets
// up the first four unmasked octets w (the first in the low bits; 0
// below). As in asciiShort, two loads that overlap from 4 octets up (and
// the octets 0, 1 and 2 below) cover b; both are loaded before either is
// stored, so an octet of the overlap is stored twice with the same value.
// A caller that reads b[:4] back after these stores would wait: at 5-7 and
// 9-11 octets the second store covers part of it, and neither store can
// forward the load (docs/performance.md), so w comes from the register.
func unmaskShort(b []byte, k uint32) (x uint64, w uint32) {
	le := binary.LittleEndian
	k64 := uint64(k) * (1<<32 | 1)
	// n > 7 and n > 3, not n >= 8 and n >= 4: a boundary mutant then
	// loads past the end and panics (see asciiShort).
	switch n := len(b); {
	case n > 7:
		w0 := le.Uint64(b) ^ k64
		w1 := le.Uint64(b[n-8:]) ^ bits.RotateLeft64(k64, -8*n)
		le.PutUint64(b, w0)
		le.PutUint64(b[n-8:], w1)
		return w0 | w1, uint32(w0)
	case n > 3:
		w0 := le.Uint32(b) ^ uint32(k64)
		w1 := le.Uint32(b[n-4:]) ^ uint32(bits.RotateLeft64(k64, -8*n))
		le.PutUint32(b, w0)
		le.PutUint32(b[n-4:], w1)
		return uint64(w0 | w1), w0
	case n > 1:
		w := le.Uint16(b) ^ uint16(k64)
		x := w
		if n == 3 {
			b[2] ^= byte(k64 >> 16)
			x |= uint16(b[2])
		}
		le.PutUint16(b, w)
		return uint64(x), 0
	case n == 1:
		b[0] ^= byte(k64)
		return uint64(b[0]), 0
	}
	return 0, 0
}

// maskRest XORs b in place with the key word k, whose low octet is b[0]'s.
func maskRest(b []byte, k uint64) {
	le := binary.LittleEndian
	for len(b) > 7 {
		le.PutUint64(b, le.Uint64(b)^k)
		b = b[8:]
	}
	for i := range b {
		b[i] ^= byte(k >> (8 * i))
	}
}

// valid23 reports whether b, of 2 or 3 octets, is valid UTF-8: the
// automaton's steps written out, with neither asciiShort's loads before
// them nor run's loop. Two octets take three steps too, the first over a
// NUL, which leads from a boundary to a boundary, so that no length takes
// a branch. It is written to be inlined where the length is tested, which
// then needs no bounds check.
func valid23(b []byte) bool {
	n := len(b)
	s := dfa[b[0]&byte(-(n&1))] >> sAccept
	s = dfa[b[n-2]] >> (s & 63)
	s = dfa[b[n-1]] >> (s & 63)
	return s&63 == sAccept
}

// valid4 reports whether the 4 octets of the little-endian word w are
// valid UTF-8: ASCII by one test, anything else by four steps of the
// automaton over the word's octets, loaded once.
func valid4(w uint32) bool {
	if w&0x80808080 == 0 {
		return true
	}
	s := dfa[byte(w)] >> sAccept
	s = dfa[byte(w>>8)] >> (s & 63)
	s = dfa[byte(w>>16)] >> (s & 63)
	s = dfa[w>>24] >> (s & 63)
	return s&63 == sAccept
}

// asciiShort reports whether b, of at most 15 octets, is all ASCII: two
// loads that overlap from 4 octets up, the octets 0, n/2 and n-1 below
// (which are all of them). It is written to be inlined (cost 80 at most).
func asciiShort(b []byte) bool {
	le := binary.LittleEndian
	var x uint64
	// n > 7, not n >= 8: its boundary mutant loads 8 octets from 7 and
	// panics, where n > 8 only sent 8 octets to the two 32-bit loads.
	switch n := len(b); {
	case n > 7:
		x = le.Uint64(b) | le.Uint64(b[n-8:])
	case n >= 4:
		x = uint64(le.Uint32(b) | le.Uint32(b[n-4:]))
	case n > 0:
		x = uint64(b[0] | b[n>>1] | b[n-1])
	}
	return x&ascii8 == 0
}

// asciiMid reports whether b, of 16 to 31 octets, is all ASCII: four
// 8-octet loads, the last two overlapping the first two.
func asciiMid(b []byte) bool {
	le := binary.LittleEndian
	n := len(b)
	x := le.Uint64(b) | le.Uint64(b[8:]) | le.Uint64(b[n-16:]) | le.Uint64(b[n-8:])
	return x&ascii8 == 0
}

// validScan is scanGeneric as a Valid: every octet accepted, and the text
// ending at a boundary.
func validScan(b []byte) bool {
	n, s := scanGeneric(sAccept, b)
	return n == len(b) && s&63 == sAccept
}
