package checksumtest

import (
	"fmt"
	"math/rand/v2"

	"github.com/equivcheck/equivcheck/equiv"
)

// The exhaustive parts below close the gaps between the grid (every length
// to GridLen) and the long inputs: every initial value crossed with every
// content class on both sides of the 64-byte vector threshold, the lengths
// at the integer-width boundaries and every tail of every block size at
// several block counts, and Digests of 2^8 and 2^16 ± a few writes.
// docs/equivalence.md tabulates which method reaches which class.

// content is a content class crossed with every initial value.
type content struct {
	name string
	fill func(rng *rand.Rand, b []byte, initial uint16)
}

// contents are the content classes of the crossing: the two zeros' inputs
// (all zero; all 0xFF), alternating bytes, bytes ≥ 0x80, random, and the
// carry-heavy ones whose sum lands exactly on 0xFFFF or 0x10000.
var contents = []content{
	{"zeros", fillByte(0)},
	{"ones", fillByte(0xff)},
	{"alternating", fillAlternating},
	{"high", fillRandom(0x80)},
	{"random", fillRandom(0)},
	{"to-ffff", fillToTarget(0xffff)},
	{"to-10000", fillToTarget(0x10000)},
}

// fillAlternating fills with 0xFF, 0x00, 0xFF, …: every word 0xFF00.
func fillAlternating(_ *rand.Rand, b []byte, _ uint16) {
	for i := range b {
		b[i] = ^byte(i&1) * 0xff
	}
}

// crossLengths are the lengths of the crossing: both sides of each
// threshold of the optimized Sum (20, 32, 64, 128, 256) and of the widest
// strides, a 1500-byte frame and an odd multi-block length.
var crossLengths = []int{
	1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 19, 20, 21, 31, 32, 33, 63, 64, 65,
	127, 128, 129, 255, 256, 257, 511, 512, 513, 1500, 4099,
}

// crossClass names the class of initial × content reached at 64 bytes
// and more, where the vector kernels run.
func crossClass(initial uint16, name string) string {
	return fmt.Sprintf("initial=%#04x x content=%s x len>=64", initial, name)
}

// crossings checks Sum on every initial value × every content class ×
// every length in crossLengths × alignments 0, 1 and 63.
func crossings(c *checker, r *equiv.Run) *equiv.Counterexample {
	data := make([]byte, crossLengths[len(crossLengths)-1])
	for _, initial := range initials {
		for _, ct := range contents {
			r.Expect(crossClass(initial, ct.name))
			wide := 0
			for _, n := range crossLengths {
				b := data[:n]
				for _, align := range []int{0, 1, 63} {
					ct.fill(r.Rand(), b, initial)
					if ce := c.sum(aligned(align), b, initial); ce != nil {
						ce.Args += " class=" + ct.name
						return ce
					}
					if n >= 64 {
						wide++
					}
				}
			}
			r.ReachN(crossClass(initial, ct.name), int64(wide))
		}
	}
	return nil
}

// widthLengths are the lengths 2^p-3 .. 2^p+3 for p = 10..16 (2^8's are
// in the grid), each with the name of its class.
func widthLengths() (ns []int, names []string) {
	for p := 10; p <= 16; p++ {
		for d := -3; d <= 3; d++ {
			ns = append(ns, 1<<p+d)
			names = append(names, fmt.Sprintf("len=2^%d%+d", p, d))
		}
	}
	return ns, names
}

// blockSizes are the block sizes of the optimized code's loops: the AVX2
// kernel's 32 and 128 bytes, the generic and AVX-512 kernels' 64, and the
// AVX-512 kernel's unrolled 256.
var blockSizes = []int{32, 64, 128, 256}

// blockCounts are the numbers of whole blocks each tail follows: a few,
// and both sides of 2^8 (where a byte-wide block counter wraps).
var blockCounts = []int{5, 255, 256, 257}

// midLengths checks Sum on the lengths between the grid and the long
// inputs: widthLengths on 0xFF (initial 0xFFFF) and random content at
// alignments 0 and 1, then every tail 0..B-1 of every block size B in
// blockSizes after every count in blockCounts of whole blocks, the
// content alternating between 0xFF and random and the alignment running
// through 0..63 with the tail.
func midLengths(c *checker, r *equiv.Run) *equiv.Counterexample {
	ns, names := widthLengths()
	buf := make([]byte, 257*256+256+1)
	for i, n := range ns {
		r.Expect(names[i])
		for _, cl := range []class{classOnesFFFF, classRandom} {
			for align := range 2 {
				cl.fill(r.Rand(), buf[:n], cl.initial)
				if ce := c.sum(aligned(align), buf[:n], cl.initial); ce != nil {
					ce.Args += " class=" + cl.name
					return ce
				}
			}
		}
		r.ReachN(names[i], 4)
	}
	for _, bs := range blockSizes {
		for _, k := range blockCounts {
			name := fmt.Sprintf("tails of %d-byte blocks x %d blocks", bs, k)
			r.Expect(name)
			for t := range bs {
				cl := []class{classOnesFFFF, classRandom}[t%2]
				b := buf[:k*bs+t]
				cl.fill(r.Rand(), b, cl.initial)
				if ce := c.sum(aligned(t%64), b, cl.initial); ce != nil {
					ce.Args += " class=" + cl.name
					return ce
				}
			}
			r.ReachN(name, int64(bs))
		}
	}
	return nil
}

// writeCounts are the numbers of Digest writes around 2^8 and 2^16.
var writeCounts = []int{255, 256, 257, 1<<16 - 1, 1 << 16, 1<<16 + 1}

// digestWrites checks a Digest fed random bytes in writeCounts writes:
// writes of one byte each (every split odd), then, for the counts around
// 2^8, writes of lengths cycling through 1, 0, 2, 3 (odd, empty, even).
func digestWrites(c *checker, r *equiv.Run) *equiv.Counterexample {
	if c.impl.New == nil {
		return nil
	}
	for _, w := range writeCounts {
		name := fmt.Sprintf("digest writes=%d", w)
		r.Expect(name)
		for _, cycle := range [][]int{{1}, {1, 0, 2, 3}} {
			if w > 1<<8+1 && len(cycle) > 1 {
				continue
			}
			var splits []int
			n := 0
			for i := range w - 1 {
				n += cycle[i%len(cycle)]
				splits = append(splits, n)
			}
			b := make([]byte, n+cycle[(w-1)%len(cycle)])
			fillRandom(0)(r.Rand(), b, 0)
			if ce := c.digest(aligned(0), b, splits); ce != nil {
				return ce
			}
			r.Reach(name)
		}
	}
	return nil
}

// gateLengths are the long inputs gates checks at every alignment: a
// length on each side of the AVX-512 kernel's 256-byte loop and its
// 64-byte blocks, past a page, and past 2^16 and 2^20 bytes.
var gateLengths = []int{255, 256, 257, 1000, 4097, 1<<16 + 3, 1<<20 + 5}

// gateAligns are gates' alignments: every one at Standard and Deep; at
// Quick, both ends and the middle of a line, and an odd one past a word.
func gateAligns(r *equiv.Run) []int {
	if r.Level() == equiv.Quick {
		return []int{0, 1, 9, 31, 32, 63}
	}
	aligns := make([]int, 64)
	for i := range aligns {
		aligns[i] = i
	}
	return aligns
}

// gates crosses the optimized code's size gates at every alignment class
// with every function that reaches them: Sum and Checksum on each of
// gateLengths of random content, and a Digest fed an odd prefix (1, 3 or
// 63 bytes), then the long input in one Write, then one byte, so that its
// wide path starts on an odd byte of the sum.
func gates(c *checker, r *equiv.Run) *equiv.Counterexample {
	data := make([]byte, gateLengths[len(gateLengths)-1]+64)
	for _, n := range gateLengths {
		name := fmt.Sprintf("gate len=%d at every alignment", n)
		r.Expect(name)
		for _, align := range gateAligns(r) {
			b := data[:n]
			classRandom.fill(r.Rand(), b, 0)
			if ce := c.sum(aligned(align), b, classRandom.initial); ce != nil {
				return ce
			}
			if ce := c.checksum(aligned(align), b); ce != nil {
				return ce
			}
			for _, odd := range []int{1, 3, 63} {
				d := data[:odd+n+1]
				classRandom.fill(r.Rand(), d, 0)
				if ce := c.digest(aligned(align), d, []int{odd, odd + n}); ce != nil {
					return ce
				}
			}
			r.Reach(name)
		}
	}
	return nil
}
