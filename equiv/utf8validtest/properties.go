package utf8validtest

import (
	"math/rand/v2"
	"slices"
	"unicode/utf8"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/equiv"
)

// properties runs the differential rapid property over drawn texts,
// pieces, keys and readers, then the gopter laws of the implementation
// alone. Run.Property and Run.Law count every case themselves.
func (c *checker) properties(r *equiv.Run) error {
	checks := equiv.Pick(r, 300, 3000, 30000)
	if err := r.Property("differential", checks, c.differential); err != nil {
		return err
	}
	for _, l := range c.laws() {
		if err := r.Law(l.name, checks, l.prop); err != nil {
			return err
		}
	}
	return nil
}

// textLens are the ranges of text lengths the properties draw from, a
// range first and then a length in it, so that every path of the
// optimized code is reached: the automaton alone, one block, several,
// many.
var textLens = [][2]int{{0, 15}, {16, 63}, {64, 255}, {256, 4096}}

// drawText draws a text: valid characters of every length, with, half of
// the time, one octet replaced by a random one.
func drawText(t *rapid.T) []byte {
	span := textLens[rapid.IntRange(0, len(textLens)-1).Draw(t, "length range")]
	n := rapid.IntRange(span[0], span[1]).Draw(t, "length")
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), uint64(n)))
	text := fillText(rng, n, nil)
	if n > 0 && rapid.Bool().Draw(t, "flawed") {
		text[rapid.IntRange(0, n-1).Draw(t, "flaw at")] = rapid.Byte().Draw(t, "flaw")
	}
	return text
}

// differential draws a text, its pieces (up to 7 cuts), an alignment, a
// key and position, and a reader, and compares every function on them.
func (c *checker) differential(t *rapid.T) error {
	text := drawText(t)
	var splits []int
	for range rapid.IntRange(0, maxSplits).Draw(t, "cuts") {
		splits = append(splits, rapid.IntRange(0, len(text)).Draw(t, "cut"))
	}
	slices.Sort(splits)
	p := plan{align: rapid.IntRange(0, 63).Draw(t, "align"), splits: splits,
		rc: readerCase{kind: rapid.IntRange(0, numSources-1).Draw(t, "reader"), here: rapid.Bool().Draw(t, "warm-up here")}}
	p.rc.at = rapid.IntRange(0, len(text)).Draw(t, "reader acts at")
	compared := false
	for _, in := range p.inputs(text, keyBytes(rapid.Uint32().Draw(t, "key")), rapid.Int().Draw(t, "pos")) {
		ce, n := c.compare(in)
		if ce != nil {
			return ce
		}
		compared = compared || n > 0
	}
	if !compared {
		return equiv.ErrNotCompared
	}
	return nil
}

// law is a gopter property of the implementation alone.
type law struct {
	name string
	prop gopter.Prop
}

// laws are the identities an implementation must satisfy whatever the
// reference says: a Validator fed a text in any two pieces agrees with
// Valid on it, and fails at the same octet as fed whole; unmasking twice
// restores the octets.
func (c *checker) laws() []law {
	var out []law
	texts := gen.SliceOf(gen.UInt8()).Map(func(b []byte) []byte { return withRunes(b) }).WithLabel("text")
	cuts := gen.IntRange(0, 1<<16).WithLabel("cut")
	if c.impl.Valid != nil && c.impl.NewValidator != nil {
		out = append(out, law{"Valid is a Validator fed the text in two pieces", prop.ForAll(func(text []byte, cut int) bool {
			cut %= len(text) + 1
			v := c.impl.NewValidator()
			_, e1 := v.Write(text[:cut])
			_, e2 := v.Write(text[cut:])
			return c.impl.Valid(text) == (e1 == nil && e2 == nil && v.Close() == nil)
		}, texts, cuts)})
	}
	if c.impl.NewValidator != nil {
		out = append(out, law{"a Validator fails at one offset however the text is cut", prop.ForAll(func(text []byte, cut int) bool {
			cut %= len(text) + 1
			whole := c.impl.NewValidator()
			n, err := whole.Write(text)
			parts := c.impl.NewValidator()
			n1, e1 := parts.Write(text[:cut])
			n2, e2 := parts.Write(text[cut:])
			if e1 != nil {
				// An empty Write after the failure fails too, unless the
				// clause is relaxed (Relax).
				emptyOK := cut == len(text) && c.cfg.Relaxed(emptyWriteFails)
				return err != nil && n1 == n && (e2 != nil || emptyOK) && n2 == 0
			}
			return (err == nil) == (e2 == nil) && n1+n2 == n
		}, texts, cuts)})
	}
	if _, ok := c.newUnmasker(); ok {
		out = append(out, law{"unmasking twice restores the octets", prop.ForAll(func(text []byte, key uint32, pos int) bool {
			b := slices.Clone(text)
			u, _ := c.newUnmasker()
			next, _, _ := u.Unmask(b, keyBytes(key), pos)
			u2, _ := c.newUnmasker()
			next2, _, _ := u2.Unmask(b, keyBytes(key), pos)
			return next == next2 && next == (pos+len(text))&3 && slices.Equal(b, text)
		}, texts, gen.UInt32().WithLabel("key"), gen.Int().WithLabel("pos"))})
	}
	return out
}

// newUnmasker returns a new Validator of the implementation as an
// Unmasker, if it is one.
func (c *checker) newUnmasker() (Unmasker, bool) {
	if c.impl.NewValidator == nil {
		return nil, false
	}
	u, ok := c.impl.NewValidator().(Unmasker)
	return u, ok
}

// withRunes turns random octets into a text that is mostly valid: each
// octet below 0xF8 becomes a character whose code point it picks (of a
// length it picks), the others stay as they are (invalid).
func withRunes(b []byte) []byte {
	var out []byte
	for _, o := range b {
		if o >= 0xf8 {
			out = append(out, o)
			continue
		}
		cp := []rune{rune(o & 0x7f), 0x80 + rune(o)<<3, 0x800 + rune(o)<<8, 0x10000 + rune(o)<<12}[o>>6]
		if !utf8.ValidRune(cp) {
			cp = 0xfffd
		}
		out = utf8.AppendRune(out, cp)
	}
	return out
}
