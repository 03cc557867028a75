package checksumtest

import (
	"encoding/binary"
	"slices"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// law is an algebraic identity that any correct implementation satisfies,
// checked with gopter on the implementation alone (no reference involved).
type law struct {
	name string
	prop gopter.Prop
}

// laws are the laws the implementation provides the functions for.
func (c *checker) laws() []law {
	var ls []law
	if c.impl.Sum != nil {
		ls = []law{
			{"word order does not matter (RFC 1071 §2(B) commutativity)", c.wordOrderLaw()},
			{"a group at an odd boundary sums as its byte-swapped even sum (RFC 1071 §3)", c.oddBoundaryLaw()},
			{"initial accumulates like a leading word", c.initialLaw()},
			{"data followed by its checksum sums to 0xFFFF (RFC 1071 §1)", c.selfCheckLaw()},
		}
	}
	if c.impl.Update != nil {
		ls = append(ls, law{"Update equals recomputing (RFC 1624 §3; 0x0000 where a word changed and the new data is all zero, §5; 0xFFFF or 0x0000 where nothing changed, errata 4782)", c.updateLaw()})
	}
	return append(ls, c.helperLaws()...)
}

// lawCase is one case of a law: it calls the implementation on the
// inputs in scope, and the case holds vacuously if any is out of scope.
type lawCase struct {
	c   *checker
	out bool
}

func (c *checker) lawCase() *lawCase { return &lawCase{c: c} }

func (l *lawCase) sum(b []byte, initial uint16) uint16 {
	if l.out || equiv.Excluded(l.c.cfg, Input{Func: "Sum", Data: b, Initial: initial, Align: int(equiv.AddrOf(b) % 64)}) {
		l.out = true
		return 0
	}
	if l.c.impl.Sum == nil {
		return ref.Sum(b, initial) // the other functions' laws, without an Impl.Sum
	}
	return l.c.impl.Sum(b, initial)
}

func (l *lawCase) update(checksum, old, new uint16) uint16 {
	if l.out || equiv.Excluded(l.c.cfg, Input{Func: "Update", Update: [3]uint16{checksum, old, new}}) {
		l.out = true
		return 0
	}
	return l.c.impl.Update(checksum, old, new)
}

// holds is the case's verdict: ok, or vacuously true.
func (l *lawCase) holds(ok bool) bool { return ok || l.out }

// wordOrderLaw: the sum of words is the sum of any rotation or the
// reversal of them.
func (c *checker) wordOrderLaw() gopter.Prop {
	return prop.ForAll(func(words []uint16, k int) bool {
		l := c.lawCase()
		b := wordsBytes(words)
		if len(words) == 0 {
			return l.holds(l.sum(b, 0) == 0)
		}
		rot := append(slices.Clone(words[k%len(words):]), words[:k%len(words)]...)
		rev := slices.Clone(words)
		slices.Reverse(rev)
		s := l.sum(b, 0)
		return l.holds(s == l.sum(wordsBytes(rot), 0) && s == l.sum(wordsBytes(rev), 0))
	}, gen.SliceOf(gen.UInt16()).WithLabel("words"), gen.IntRange(0, 1<<20).WithLabel("k"))
}

// oddBoundaryLaw: x followed by y sums as x's sum plus y's, byte-swapped if
// y starts at an odd offset.
func (c *checker) oddBoundaryLaw() gopter.Prop {
	return prop.ForAll(func(x, y []byte) bool {
		l := c.lawCase()
		sx, sy := l.sum(x, 0), l.sum(y, 0)
		if len(x)%2 == 1 {
			sy = sy<<8 | sy>>8
		}
		return l.holds(l.sum(append(slices.Clone(x), y...), 0) == onesAdd(sx, sy))
	}, gen.SliceOf(gen.UInt8()).WithLabel("x"), gen.SliceOf(gen.UInt8()).WithLabel("y"))
}

// initialLaw: Sum(x, initial) is the sum of initial's bytes followed by x.
func (c *checker) initialLaw() gopter.Prop {
	return prop.ForAll(func(x []byte, initial uint16) bool {
		l := c.lawCase()
		return l.holds(l.sum(x, initial) == l.sum(append(be16(initial), x...), 0))
	}, gen.SliceOf(gen.UInt8()).WithLabel("x"), gen.UInt16().WithLabel("initial"))
}

// selfCheckLaw: even-length data followed by its checksum sums to 0xFFFF.
func (c *checker) selfCheckLaw() gopter.Prop {
	return prop.ForAll(func(x []byte) bool {
		l := c.lawCase()
		if len(x)%2 == 1 {
			x = append(x, 0)
		}
		return l.holds(l.sum(append(slices.Clone(x), be16(^l.sum(x, 0))...), 0) == 0xffff)
	}, gen.SliceOf(gen.UInt8()).WithLabel("x"))
}

// updateLaw: Update gives the checksum of the data with one word changed,
// except where a word changed and the new data is all zero: recomputing
// gives 0xFFFF there, but Eqn. 3 cannot reach one's-complement +0, so
// gives 0x0000. Where nothing changed over all-zero data, the field
// 0xFFFF stays (RFC 1624 errata 4782) or becomes Eqn. 3's 0x0000.
func (c *checker) updateLaw() gopter.Prop {
	return prop.ForAll(func(words []uint16, i int, m2 uint16) bool {
		if len(words) == 0 {
			return true
		}
		l := c.lawCase()
		i %= len(words)
		before := ^l.sum(wordsBytes(words), 0)
		after := slices.Clone(words)
		after[i] = m2
		got := l.update(before, words[i], m2)
		if slices.ContainsFunc(after, func(w uint16) bool { return w != 0 }) {
			return l.holds(got == ^l.sum(wordsBytes(after), 0))
		}
		if words[i] == m2 {
			return l.holds(got == before || got == 0x0000)
		}
		return l.holds(got == 0x0000)
	}, gen.SliceOf(gen.OneGenOf(gen.UInt16(), gen.Const(uint16(0)), gen.Const(uint16(0xffff)))).WithLabel("words"),
		gen.IntRange(0, 1<<20).WithLabel("i"), gen.UInt16().WithLabel("m2"))
}

func wordsBytes(words []uint16) []byte {
	b := make([]byte, 0, 2*len(words))
	for _, w := range words {
		b = binary.BigEndian.AppendUint16(b, w)
	}
	return b
}

// be16 returns the big-endian bytes of v.
func be16(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }

// onesAdd is one's-complement addition with end-around carry.
func onesAdd(a, b uint16) uint16 {
	s := uint32(a) + uint32(b)
	return uint16(s&0xffff + s>>16)
}
