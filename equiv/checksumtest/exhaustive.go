package checksumtest

import (
	"math/rand/v2"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// initials are the initial values every short input is checked with: zero,
// one, the byte boundaries and the values next to the carry.
var initials = []uint16{0x0000, 0x0001, 0x00ff, 0x0100, 0x7fff, 0x8000, 0xff00, 0xfffe, 0xffff}

// runExhaustive enumerates the bounded domains of docs/equivalence.md, one
// axis per part. Under a sharded run each shard runs the parts Run.Mine
// gives it (the method is Split).
func runExhaustive(c *checker, r *equiv.Run) error {
	parts := []func(*checker, *equiv.Run) *equiv.Counterexample{
		shortInputs, grid, crossings, midLengths, longInputs, digestSplits, digestWrites, updates,
	}
	// New parts go at the end: a part's index is its unit of Run.Mine.
	for i, part := range append(append(parts, helperParts...), gates) {
		if !r.Mine(i) {
			continue
		}
		if ce := part(c, r); ce != nil {
			return r.Fail(ce)
		}
	}
	return nil
}

// shortInputs checks Sum on every input of length 0..2 with every value in
// initials (and, at Standard and Deep, every 3-byte input with initials 0
// and 0xFFFF: 16.8M inputs), at alignments 0..3 in turn.
func shortInputs(c *checker, r *equiv.Run) *equiv.Counterexample {
	for n := 0; n <= equiv.Pick(r, 2, 3, 3); n++ {
		inits := initials
		if n == 3 {
			inits = []uint16{0x0000, 0xffff}
		}
		b := make([]byte, n)
		for v := range 1 << (8 * n) {
			for i := range b {
				b[i] = byte(v >> (8 * i))
			}
			for _, initial := range inits {
				if ce := c.sum(aligned(v%4), b, initial); ce != nil {
					return ce
				}
			}
		}
	}
	return nil
}

// grid checks Sum on every length 0..GridLen × every alignment 0..63 ×
// every content class, and Checksum on every length × alignment.
func grid(c *checker, r *equiv.Run) *equiv.Counterexample {
	data := make([]byte, GridLen)
	for n := 0; n <= GridLen; n++ {
		if !r.Thin(n) {
			continue // go test -short: another sample's length
		}
		for align := range 64 {
			b := data[:n]
			for _, cl := range classes {
				cl.fill(r.Rand(), b, cl.initial)
				if ce := c.sum(aligned(align), b, cl.initial); ce != nil {
					ce.Args += " class=" + cl.name
					return ce
				}
			}
			if ce := c.checksum(aligned(align), b); ce != nil {
				return ce
			}
		}
	}
	return nil
}

// longInputs checks exactness on long inputs: lengths around 2^16 and 2^17
// words, and multi-megabyte buffers of 0xFF (a 32-bit accumulator
// overflows after about 128 KiB of them) and of random bytes, at
// alignments 0 and 1.
func longInputs(c *checker, r *equiv.Run) *equiv.Counterexample {
	lengths := []int{1<<16 - 1, 1 << 16, 1<<17 + 1, 1<<20 + 3, 4<<20 + 1, 4<<20 + 3}
	if r.Level() == equiv.Deep {
		lengths = append(lengths, 64<<20+7)
	}
	for _, cl := range []class{classOnesFFFF, classRandom} {
		r.Expect("len>=4MiB x content=" + cl.name)
	}
	for _, n := range lengths {
		big := make([]byte, n+1)
		for _, cl := range []class{classOnesFFFF, classRandom} {
			cl.fill(r.Rand(), big, cl.initial)
			for align := range 2 {
				if ce := c.sum(aligned(align), big[align:align+n], cl.initial); ce != nil {
					ce.Args += " class=" + cl.name
					return ce
				}
			}
			if n >= 4<<20 {
				r.ReachN("len>=4MiB x content="+cl.name, 2)
			}
		}
	}
	return nil
}

// digestSplits checks every split of inputs of length 0..64 into 2 and 3
// Digest writes, empty writes included, on random and all-0xFF content
// (and into 4 writes up to 24 bytes at Standard and Deep).
func digestSplits(c *checker, r *equiv.Run) *equiv.Counterexample {
	if c.impl.New == nil {
		return nil
	}
	for _, cl := range []class{classRandom, classOnes} {
		for n := 0; n <= 64; n++ {
			b := make([]byte, n)
			cl.fill(r.Rand(), b, 0)
			for i := 0; i <= n; i++ {
				for j := i; j <= n; j++ {
					if ce := c.digest(aligned(0), b, []int{i, j}); ce != nil {
						return ce
					}
					if r.Level() == equiv.Quick || n > 24 {
						continue
					}
					for k := j; k <= n; k++ {
						if ce := c.digest(aligned(0), b, []int{i, j, k}); ce != nil {
							return ce
						}
					}
				}
			}
		}
	}
	return nil
}

// updates checks Update over the subspace where each of checksum, old and
// new is within 128 of 0x0000 or of 0xFFFF (256³ = 16.8M triples: every
// carry and end-around-carry combination), then on random triples.
func updates(c *checker, r *equiv.Run) *equiv.Counterexample {
	if c.impl.Update == nil {
		return nil
	}
	near := nearEnds(256)
	for j, hc := range near {
		if !r.Thin(j) {
			continue // go test -short: another sample's checksum
		}
		for _, m := range near {
			for _, m2 := range near {
				if ce := c.update(hc, m, m2); ce != nil {
					return ce
				}
			}
		}
	}
	for range equiv.Pick(r, 1<<20, 1<<24, 1<<27) {
		v := r.Rand().Uint64()
		if ce := c.update(uint16(v), uint16(v>>16), uint16(v>>32)); ce != nil {
			return ce
		}
	}
	return nil
}

// class is a family of contents that drives the sum into one of the cases
// the optimized code must get right.
type class struct {
	name    string
	initial uint16
	fill    func(rng *rand.Rand, b []byte, initial uint16)
}

var (
	// All 0xFF: every word 0xFFFF, the longest carry chains; with initial
	// 0 the sum is 0xFFFF ("negative zero") for every nonempty input.
	classOnes = class{"ones", 0x0000, fillByte(0xff)}
	// The same onto initial 0xFFFF.
	classOnesFFFF = class{"ones+ffff", 0xffff, fillByte(0xff)}
	// Random content with a random initial value.
	classRandom = class{"random", 0x5a5a, fillRandom(0)}
)

// classes are the content classes of the grid, in order.
var classes = []class{
	// All zero: the only input whose sum is 0x0000 ("positive zero").
	{"zero", 0x0000, fillByte(0)},
	classOnes,
	// 0xFFFF chains onto initial 1: every partial sum wraps.
	{"ones+1", 0x0001, fillByte(0xff)},
	classOnesFFFF,
	// Bytes ≥ 0x80 throughout: catches sign extension of bytes or words.
	{"high", 0x8000, fillRandom(0x80)},
	// Random words, then the last full word chosen so that the folded sum
	// is exactly 0xFFFF with no carry out of the final addition…
	{"to-ffff", 0x0000, fillToTarget(0xffff)},
	// … or so that the unfolded sum is exactly 0x10000 (folds to 0x0001).
	{"to-10000", 0x1234, fillToTarget(0x10000)},
	classRandom,
}

func fillByte(v byte) func(*rand.Rand, []byte, uint16) {
	return func(_ *rand.Rand, b []byte, _ uint16) {
		for i := range b {
			b[i] = v
		}
	}
}

// fillRandom fills with random bytes, each ORed with or.
func fillRandom(or byte) func(*rand.Rand, []byte, uint16) {
	return func(rng *rand.Rand, b []byte, _ uint16) {
		for i := range b {
			b[i] = byte(rng.Uint32()) | or
		}
	}
}

// fillToTarget fills b with random bytes, then sets its last full word so
// that initial plus all words is target (0xFFFF or 0x10000) before folding
// carries out of that last addition.
func fillToTarget(target uint32) func(*rand.Rand, []byte, uint16) {
	return func(rng *rand.Rand, b []byte, initial uint16) {
		fillRandom(0)(rng, b, initial)
		if len(b) < 2 {
			return
		}
		w := len(b)/2*2 - 2 // the last full word
		b[w], b[w+1] = 0, 0
		s := uint32(ref.Sum(b, initial))
		if s == 0 || s > target-1 {
			return // target unreachable with one word
		}
		need := target - s
		if need > 0xffff {
			return
		}
		b[w], b[w+1] = byte(need>>8), byte(need)
	}
}
