package utf8validtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"unicode/utf8"

	"github.com/equivcheck/equivcheck/equiv"
)

// exhaustive enumerates the bounded domains of docs/equivalence.md, one
// axis per part. Under a sharded run each shard runs the units Run.Mine
// gives it (the method is Split): the parts, and within the largest, each
// first octet.
func (c *checker) exhaustive(r *equiv.Run) error {
	parts := []func(*equiv.Run) error{
		c.shortTexts, c.characterSplits, c.grid, c.failures, c.longSplits, c.readerStreams,
		c.boundaryTexts,
	}
	for i, part := range parts {
		if !r.Mine(i) {
			continue
		}
		c.rng = rand.New(rand.NewPCG(r.Config().Seed(), uint64(i)))
		if err := part(r); err != nil {
			return err
		}
	}
	// Every 3-octet text at every level, and every 4-octet one from F0
	// (the only first octets of a 4-octet character) at Standard and
	// every one at Deep: one unit per first octet, or per two.
	if err := c.threeOctets(r); err != nil {
		return err
	}
	return c.fourOctets(r)
}

// context is the ASCII around a short text: how many octets before and
// after it, and the alignment of the whole, chosen from the text's index
// i by a schedule under which every prefix and suffix length 0..64 and
// every alignment occurs.
func context(i int) (before, after, align int) {
	return i % 65, (i / 65) % 65, (i * 7) & 63
}

// inContext returns text between before ASCII octets 'a' and after 'b'
// (at most 64 each).
func inContext(scratch []byte, text []byte, before, after int) []byte {
	out := append(append(scratch[:0], runOfA[:before]...), text...)
	return append(out, runOfB[:after]...)
}

var (
	runOfA = bytes.Repeat([]byte{'a'}, 64)
	runOfB = bytes.Repeat([]byte{'b'}, 64)
)

// shortTexts checks every text of 0 to 2 octets in its ASCII context:
// Valid, a Validator fed it in pieces split before, inside and after the
// text, and Unmask in the same pieces from the context's key phase.
func (c *checker) shortTexts(r *equiv.Run) error {
	r.Expect("every text of 0..2 octets in context")
	count := tally(r)
	scratch := make([]byte, 3+2*64)
	i := 0
	for n := 0; n <= 2; n++ {
		text := make([]byte, n)
		for v := range 1 << (8 * n) {
			for k := range text {
				text[k] = byte(v >> (8 * k))
			}
			before, after, align := context(i)
			i++
			full := inContext(scratch, text, before, after)
			splits := []int{before, before + min(1, n), before + n}
			for _, in := range []Input{
				{Func: "Valid", Text: full, Align: align},
				{Func: "Validator", Text: full, Align: align, Splits: splits},
				{Func: "Unmask", Text: full, Align: align, Splits: splits, Key: keyOf(i), Pos: i & 3},
			} {
				if err := count(c.compare(in)); err != nil {
					return err
				}
			}
		}
	}
	r.ReachN("every text of 0..2 octets in context", int64(i))
	return nil
}

// keyOf is a masking key that varies with i: each octet a distinct
// function of it.
func keyOf(i int) [4]byte {
	return [4]byte{byte(i*151 + 17), byte(i*67 + 3), byte(i*29 + 101), byte(i*211 + 59)}
}

// characterSplits checks every UTF-8 character of 2, 3 and 4 octets
// (U+0080..U+10FFFF but the surrogates: 1,111,936 of them) in its ASCII
// context: a Validator fed it split at each point inside it, Unmask split
// at one of them, and a Validator fed it with its last octet replaced
// (lean.char).
func (c *checker) characterSplits(r *equiv.Run) error {
	if c.impl.NewValidator == nil {
		return nil
	}
	r.Expect("every character of 2..4 octets split at every point")
	l := c.newLean(r)
	var enc [4]byte
	before := r.Checked()
	for hi := rune(0); hi < 0x110000; hi += 0x10000 {
		if !r.Thin(int(hi >> 16)) {
			continue
		}
		err := l.batch(func() error {
			for cp := max(hi, 0x80); cp < hi+0x10000; cp++ {
				if cp >= 0xD800 && cp <= 0xDFFF {
					continue
				}
				n := utf8.EncodeRune(enc[:], cp)
				if err := l.char(enc[:n], int(cp)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	r.ReachN("every character of 2..4 octets split at every point", r.Checked()-before)
	return nil
}

// textClasses fill a text of n octets: ASCII, 2-, 3- and 4-octet
// characters, a mix, and the mix with one flaw (an invalid octet first,
// last or in the middle, a surrogate in the middle, the text cut inside
// its last character).
var textClasses = []struct {
	name string
	fill func(rng *rand.Rand, n int) []byte
}{
	{"ascii", func(rng *rand.Rand, n int) []byte { return fillText(rng, n, []rune{'a', '~', 0x00, 0x7f}) }},
	{"latin", func(rng *rand.Rand, n int) []byte { return fillText(rng, n, []rune{0xe9, 0x80, 0x7ff}) }},
	{"cjk", func(rng *rand.Rand, n int) []byte { return fillText(rng, n, []rune{0x65e5, 0x800, 0xffff, 0xd7ff}) }},
	{"emoji", func(rng *rand.Rand, n int) []byte { return fillText(rng, n, []rune{0x1f600, 0x10000, 0x10ffff}) }},
	{"mixed", func(rng *rand.Rand, n int) []byte { return fillText(rng, n, nil) }},
	{"invalid-first", func(rng *rand.Rand, n int) []byte { return flaw(fillText(rng, n, nil), 0, 0xff) }},
	{"invalid-last", func(rng *rand.Rand, n int) []byte { return flaw(fillText(rng, n, nil), n-1, 0x80) }},
	{"surrogate-middle", func(rng *rand.Rand, n int) []byte { return surrogateAt(fillText(rng, n, nil), n/2) }},
	{"cut-last", func(rng *rand.Rand, n int) []byte { return cutLast(fillText(rng, n+4, []rune{0x1f600}), n) }},
}

// fillText returns a valid text of exactly n octets of characters drawn
// from runes (any character if nil), padded with ASCII.
func fillText(rng *rand.Rand, n int, runes []rune) []byte {
	out := make([]byte, 0, n+4)
	for {
		var cp rune
		if runes == nil {
			cp = randomRune(rng)
		} else {
			cp = runes[rng.IntN(len(runes))]
		}
		if len(out)+utf8.RuneLen(cp) > n {
			break
		}
		out = utf8.AppendRune(out, cp)
	}
	for len(out) < n {
		out = append(out, 'z')
	}
	return out
}

// randomRune is a character of a random length: each length as likely.
func randomRune(rng *rand.Rand) rune {
	for {
		var cp rune
		switch rng.IntN(4) {
		case 0:
			cp = rune(rng.IntN(0x80))
		case 1:
			cp = 0x80 + rune(rng.IntN(0x800-0x80))
		case 2:
			cp = 0x800 + rune(rng.IntN(0x10000-0x800))
		default:
			cp = 0x10000 + rune(rng.IntN(0x110000-0x10000))
		}
		if cp < 0xD800 || cp > 0xDFFF {
			return cp
		}
	}
}

// flaw sets b[i] to o, if b has that octet.
func flaw(b []byte, i int, o byte) []byte {
	if i >= 0 && i < len(b) {
		b[i] = o
	}
	return b
}

// surrogateAt writes U+D800's encoding (ED A0 80) at i, if it fits.
func surrogateAt(b []byte, i int) []byte {
	if i+3 <= len(b) {
		copy(b[i:], []byte{0xed, 0xa0, 0x80})
	}
	return b
}

// cutLast returns b cut to n octets, inside a character when n falls
// inside one.
func cutLast(b []byte, n int) []byte { return b[:min(n, len(b))] }

// grid checks every length 0..GridLen × every alignment 0..63 × text
// classes: Valid, a Validator written the text in one piece, and Unmask at
// the alignment's key phase. At Quick each (length, alignment) takes three
// of the nine classes in turn, so that every class meets every length (at
// a third of the alignments) and every alignment (at a third of the
// lengths); from Standard, every class.
func (c *checker) grid(r *equiv.Run) error {
	count := tally(r)
	before := r.Checked()
	step := equiv.Pick(r, 3, 1, 1)
	class := fmt.Sprintf("len=0..%d x align=0..63 x %d classes", GridLen, len(textClasses)/step)
	r.Expect(class)
	for n := 0; n <= GridLen; n++ {
		if !r.Thin(n) {
			continue
		}
		for align := range 64 {
			for k := (n + align) % step; k < len(textClasses); k += step {
				cl := textClasses[k]
				text := cl.fill(c.rng, n)
				for _, in := range []Input{
					{Func: "Valid", Text: text, Align: align},
					{Func: "Validator", Text: text, Align: align},
					{Func: "Unmask", Text: text, Align: align, Key: keyOf(n + align), Pos: align & 3},
				} {
					ce, compared := c.compare(in)
					if ce != nil {
						ce.Args += " class=" + cl.name
					}
					if err := count(ce, compared); err != nil {
						return err
					}
				}
			}
		}
	}
	r.ReachN(class, r.Checked()-before)
	return nil
}

// failLen is the length of failures' texts: past two of the AVX-512
// Unmask's turns of four 64-octet blocks and a block more, so that the
// flaw lands at every offset of every block of a turn, of the single
// blocks after it and of the last block, and on every block boundary.
const failLen = 600

// flawOctets are the octets failures puts at each offset: one that starts
// no character, a continuation where none is expected, and the first
// octet of a character cut short by the ASCII after it.
var flawOctets = []byte{0xff, 0x80, 0xe2}

// failures plants a flaw at every offset of a mixed valid text of failLen
// octets, and cuts the text at every length, at alignments 0, 1, 31 and
// 63: Valid, a Validator written the text in pieces cut at 32, 64, 128 and
// 300, and Unmask in the same pieces, so that every fail-fast offset is
// reported from every position in a block and a turn.
func (c *checker) failures(r *equiv.Run) error {
	r.Expect("a flaw at every offset of 600 octets")
	count := tally(r)
	before := r.Checked()
	base := fillText(c.rng, failLen, nil)
	splits := []int{32, 64, 128, 300}
	for _, align := range []int{0, 1, 31, 63} {
		for at := 0; at < failLen; at++ {
			for _, o := range flawOctets {
				text := append([]byte(nil), base...)
				text[at] = o
				for _, in := range []Input{
					{Func: "Valid", Text: text, Align: align},
					{Func: "Validator", Text: text, Align: align, Splits: splits},
					{Func: "Unmask", Text: text, Align: align, Splits: splits, Key: keyOf(at), Pos: at & 3},
				} {
					if err := count(c.compare(in)); err != nil {
						return err
					}
				}
			}
			cut := base[:at]
			if err := count(c.compare(Input{Func: "Validator", Text: cut, Align: align, Splits: clamp(splits, at)})); err != nil {
				return err
			}
		}
	}
	r.ReachN("a flaw at every offset of 600 octets", r.Checked()-before)
	return nil
}

// longSplits writes a mixed text of 200 octets to a Validator, and
// unmasks it, split at every point, and with a piece of 1, 2 or 3 octets
// starting at every point (so that a character is cut into three pieces
// and a piece holds none of its first octets), and octet by octet
// (Autobahn 6.3.2's fragmentation).
func (c *checker) longSplits(r *equiv.Run) error {
	count := tally(r)
	text := fillText(c.rng, 200, nil)
	var ways [][]int
	for i := 0; i <= len(text); i++ {
		ways = append(ways, []int{i})
		for w := 1; w <= 3 && i+w <= len(text); w++ {
			ways = append(ways, []int{i, i + w})
		}
	}
	ways = append(ways, everyOctet(len(text)))
	for k, splits := range ways {
		for _, in := range []Input{
			{Func: "Validator", Text: text, Align: k & 63, Splits: splits},
			{Func: "Unmask", Text: text, Align: k & 63, Splits: splits, Key: keyOf(k), Pos: k & 3},
		} {
			if err := count(c.compare(in)); err != nil {
				return err
			}
		}
	}
	return nil
}

// threeOctets checks every text of 3 octets (16,777,216) in its ASCII
// context, on its own unit of Run.Mine per first octet (units 6..261).
func (c *checker) threeOctets(r *equiv.Run) error {
	r.Expect("every 3-octet text in context")
	l := c.newLean(r)
	var t [3]byte
	for first := range 256 {
		if !r.Mine(leanUnits + first) {
			continue
		}
		t[0] = byte(first)
		before := r.Checked()
		err := l.batch(func() error {
			for v := range 1 << 16 {
				if !r.Thin(v >> 8) {
					continue
				}
				t[1], t[2] = byte(v), byte(v>>8)
				if err := l.text(t[:], first<<16|v); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		r.ReachN("every 3-octet text in context", r.Checked()-before)
	}
	return nil
}

// leanUnits is the number of units before threeOctets' first.
const leanUnits = 7

// fourOctets checks the texts of 4 octets in their ASCII context: none at
// Quick, those that start with F0..F4 (the first octets of every 4-octet
// character: 83,886,080 texts) at Standard, all 2^32 at Deep; on units of
// Run.Mine per two first octets (after threeOctets').
func (c *checker) fourOctets(r *equiv.Run) error {
	lo, hi := equiv.Pick(r, 0, 0xf0, 0), equiv.Pick(r, -1, 0xf4, 0xff)
	l := c.newLean(r)
	var t [4]byte
	for first := lo; first <= hi; first++ {
		for second := range 256 {
			if !r.Mine(leanUnits + 256 + (first<<8 | second)) {
				continue
			}
			t[0], t[1] = byte(first), byte(second)
			err := l.batch(func() error {
				for v := range 1 << 16 {
					t[2], t[3] = byte(v), byte(v>>8)
					if err := l.text(t[:], first<<24|second<<16|v); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// boundaryLens are the lengths of boundaryTexts' texts: a page (4096
// octets, from which the optimized AVX-512 Unmask runs its kernel in two
// calls, split at the first 64-octet boundary, when the text does not
// start on one) and one octet either side.
var boundaryLens = []int{4095, 4096, 4097}

// boundaryTexts checks texts of boundaryLens octets at every alignment
// 0..63, each with its first 64-octet boundary past its first octet h =
// 64-align octets in (1..64): valid ASCII and mixed text; a 2-, 3- and
// 4-octet character across h at each of its inner points; such a
// character cut before its last octet; a surrogate across h; an invalid
// octet first, at h-1, h, h+1 and last. Valid, a Validator written the
// text in one piece, and Unmask at the alignment's key phase: a piece-wise
// implementation must carry the character, the offset and the key's phase
// across h, and report a flaw on either side at its offset in the whole
// text. Then pieceTexts: the same lengths after a first piece of 1-3
// octets, so that the second piece, at every alignment, starts with what
// the first left.
func (c *checker) boundaryTexts(r *equiv.Run) error {
	class := fmt.Sprintf("len=%d..%d x align=0..63 x texts across the first 64-octet boundary", boundaryLens[0], boundaryLens[len(boundaryLens)-1])
	r.Expect(class)
	count := tally(r)
	before := r.Checked()
	for i, n := range boundaryLens {
		for align := range 64 {
			if !r.Thin(i*64 + align) {
				continue
			}
			h := 64 - align
			for j, text := range c.acrossBoundary(n, h) {
				for _, in := range []Input{
					{Func: "Valid", Text: text, Align: align},
					{Func: "Validator", Text: text, Align: align},
					{Func: "Unmask", Text: text, Align: align, Key: keyOf(n + align + j), Pos: (align + j) & 3},
				} {
					ce, compared := c.compare(in)
					if ce != nil {
						ce.Args += fmt.Sprintf(" boundary=%d text=%d", h, j)
					}
					if err := count(ce, compared); err != nil {
						return err
					}
				}
			}
			if err := c.pieceTexts(count, n, align); err != nil {
				return err
			}
		}
	}
	r.ReachN(class, r.Checked()-before)
	return nil
}

// pieceTexts checks texts of n octets at align whose first piece, of p =
// 1..3 octets, ends inside a 4-octet character that starts at its last
// octet (ASCII before it), whole or cut before its last octet: a
// Validator and Unmask in the two pieces. The second piece starts at
// alignment align+p with the character under way, so that a piece-wise
// Unmask of it carries the window the first piece left (at alignments
// 61-63, its first 64-octet boundary 1-3 octets in, inside the character).
func (c *checker) pieceTexts(count func(*equiv.Counterexample, int) error, n, align int) error {
	base := append(slices.Clone(runOfA[:8]), fillText(c.rng, n-8, nil)...)
	emoji := []byte{0xf0, 0x9f, 0x98, 0x80}
	for p := 1; p <= 3; p++ {
		for cut := range 2 {
			text := slices.Clone(base)
			copy(text[p-1:], emoji[:4-cut])
			splits := []int{p}
			for _, in := range []Input{
				{Func: "Validator", Text: text, Align: align, Splits: splits},
				{Func: "Unmask", Text: text, Align: align, Splits: splits, Key: keyOf(n + align + p), Pos: (align + p + cut) & 3},
			} {
				ce, compared := c.compare(in)
				if ce != nil {
					ce.Args += fmt.Sprintf(" first piece=%d cut=%d", p, cut)
				}
				if err := count(ce, compared); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// acrossBoundary returns boundaryTexts' texts of n octets for a boundary
// h octets in: mixed text with ASCII at h-4..h+3, where each text writes
// its character or flaw.
func (c *checker) acrossBoundary(n, h int) [][]byte {
	lo := max(h-4, 0)
	base := fillText(c.rng, lo, nil)
	base = append(base, runOfA[:8]...)
	base = append(base, fillText(c.rng, n-len(base), nil)...)
	at := func(i int, enc ...byte) []byte {
		t := slices.Clone(base)
		if i >= 0 && i+len(enc) <= n {
			copy(t[i:], enc)
		}
		return t
	}
	texts := [][]byte{fillText(c.rng, n, []rune{'a', 0x7f}), base}
	for _, enc := range [][]byte{{0xc3, 0xa9}, {0xe6, 0x97, 0xa5}, {0xf0, 0x9f, 0x98, 0x80}} {
		for k := 1; k < len(enc); k++ {
			texts = append(texts,
				at(h-k, enc...),              // k octets before h, the rest after
				at(h-k, enc[:len(enc)-1]...), // cut before its last octet: ASCII follows
			)
		}
	}
	texts = append(texts, at(h-1, 0xed, 0xa0, 0x80), at(h-2, 0xed, 0xa0, 0x80))
	for _, i := range []int{0, h - 1, h, h + 1, n - 1} {
		texts = append(texts, at(i, 0xff))
	}
	return texts
}
