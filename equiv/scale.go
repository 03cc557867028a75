package equiv

import (
	"iter"
	"math/rand/v2"
	"slices"

	"github.com/equivcheck/equivcheck/internal/contractknob"
)

// MethodScale is the name of the pair suites' scale method: sizes around
// every power of two up to megabytes (ScalePoints), streams fed in single
// Reads and Writes of 32 KiB and more and after long histories, and calls
// from two goroutines at once (Run.Overlap).
const MethodScale = "scale"

// ScaleMaxK returns the largest power of two, as its exponent, that a
// scale method reaches at r's level: 2^22 (4 MiB) at Quick, 2^26 (64
// MiB) at Standard and Deep. Together with the copies a suite keeps, an
// input of 2^k + 63 bytes stays within 64 MiB at Quick and 256 MiB at
// Standard.
func ScaleMaxK(r *Run) int { return Pick(r, 22, 26, 26) }

// scaleMinK is the smallest power of two of a scale method's sizes: below
// it, the other methods enumerate lengths whole.
const scaleMinK = 10

// scaleDeltas are the offsets from each power of two a scale method's
// sizes take: either side of a vector, a word and an octet, where chunked
// and unrolled kernels switch from their bulk loop to their tail.
var scaleDeltas = []int{-65, -64, -33, -8, -1, 0, 1, 7, 31, 63}

// ScaleSizes returns the input lengths of a scale method: 2^k + d for
// every k from 2^10 to ScaleMaxK and every d of -65, -64, -33, -8, -1, 0,
// 1, 7, 31 and 63. At Quick the sizes from 2^16 up are sampled: four
// deltas per power (-1, 0 and 1, for every residue of the length's parity
// and of its half's, and one drawn), so that the method stays within
// seconds; at Standard four per power above 2^22, every delta below; at
// Deep every delta of every power. The NoScale knob stops them below
// ScaleMin.
func ScaleSizes(r *Run) []int {
	var out []int
	for k := scaleMinK; k <= ScaleMaxK(r); k++ {
		deltas := scaleDeltas
		switch {
		case r.Level() == Quick && k >= 16, r.Level() == Standard && k > 22:
			deltas = []int{-1, 0, 1, scaleDeltas[r.Rand().IntN(len(scaleDeltas))]}
		}
		for _, d := range deltas {
			n := 1<<k + d
			if contractknob.NoScale.Load() && n >= ScaleMin {
				continue
			}
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// ScalePoints returns the offsets in an input of n bytes where a scale
// method places a boundary class of width octets (an invalid sequence, a
// carry pattern, a key phase, a truncation): just before, across and just
// after every power of two below n, every quarter of n, and the start and
// the end. At Quick they are sampled to about eight per input, drawn with
// rng; at Standard to about 24; at Deep all are returned. Each offset is
// in [0, n-width], in increasing order.
func ScalePoints(r *Run, rng *rand.Rand, n, width int) []int {
	if width > n {
		return nil
	}
	var all []int
	add := func(at int) {
		if at >= 0 && at <= n-width && !slices.Contains(all, at) {
			all = append(all, at)
		}
	}
	for b := 64; b < n; b *= 2 {
		add(b - width)
		add(b - width/2 - 1)
		add(b)
	}
	for q := 1; q < 4; q++ {
		b := n * q / 4
		add(b - width)
		add(b - width/2 - 1)
		add(b)
	}
	add(0)
	add(n - width)
	keep := Pick(r, 8, 24, len(all))
	for len(all) > keep {
		i := rng.IntN(len(all))
		all = append(all[:i], all[i+1:]...)
	}
	slices.Sort(all)
	return all
}

// ScaleAlign returns the alignment (offset from a 64-byte boundary) of a
// scale method's input of n octets at turn: flush against a page at its
// end (-n mod 64) at turn 0, at its start (0) at turn 1, and at neither
// (a drawn offset) at turn 2; turns past 2 wrap. It draws one number
// from rng at every turn, so that a suite's later draws do not depend on
// the turn. Where n is a multiple of 64 the first two are the same
// placement at the same address, and the next input of that size at
// turn 1 would lie where the last did (the same address again is
// Again's to check, not the scale method's): there turn 0 is 32.
func ScaleAlign(rng *rand.Rand, n, turn int) int {
	drawn := rng.IntN(64)
	end := -n & 63
	if end == 0 {
		end = 32
	}
	return [3]int{end, 0, drawn}[turn%3]
}

// History returns the lengths of a long history of calls to a stateful
// value, to feed it before the input that matters: at least a thousand
// lengths, with empty calls, single octets, every length to 64, random
// ones to 4 KiB, and one of ScaleMin and one past it, drawn with rng. The
// NoHistory knob returns none. Implementations that change mode after
// some number of calls, or that accumulate lazily, meet that point.
func History(rng *rand.Rand) iter.Seq[int] {
	return func(yield func(int) bool) {
		if contractknob.NoHistory.Load() {
			return
		}
		for i := range historyLen {
			var n int
			switch {
			case i == historyLen/2:
				n = ScaleMin
			case i == historyLen*3/4:
				n = ScaleMin + 1 + rng.IntN(ScaleMin)
			case i%7 == 0:
				n = 0
			case i%7 == 1:
				n = 1
			case i < 2*65:
				n = i / 2
			default:
				n = rng.IntN(4097)
			}
			if !yield(n) {
				return
			}
		}
	}
}

// historyLen is how many calls History makes.
const historyLen = 1200
