package checksumtest

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
)

// minimize shrinks in, on which the implementation disagreed at s (giving
// ce), to a smaller input in scope on which it still disagrees there, and
// returns that input's counterexample. Data shrinks with equiv.ShrinkBytes
// (a Digest's data piece by piece, so that the splits move with the bytes
// removed); then Initial becomes 0 and splits
// are dropped where the disagreement survives it. Update's arguments (and
// UpdateUDP's, UpdateUDP6's) are zeroed byte by byte, and the other
// helpers' values simplified by shrinkValues.
func (c *checker) minimize(s site, in Input, ce *equiv.Counterexample) *equiv.Counterexample {
	fails := func(t Input) bool {
		if t.buffered() {
			t.Align = alignOf(s, len(t.Data))
		}
		return !equiv.OutOfScope(c.cfg, t) && c.call(s, t) != nil
	}
	switch in.Func {
	case "Update", "UpdateUDP", "UpdateUDP6":
		in.Update = shrinkUpdate(in.Update, func(u [3]uint16) bool {
			t := in
			t.Update = u
			return fails(t)
		})
	case "Digest":
		in = shrinkPieces(in, fails)
	case "Combine", "FinishUDP", "PseudoHeaderSum":
		in = shrinkValues(in, fails)
	default:
		dataFails := func(d []byte) bool {
			t := in
			t.Data = d
			return fails(t)
		}
		in.Data = shrinkLong(in.Data, dataFails)
		if len(in.Data) <= longShrink {
			in.Data = equiv.ShrinkBytes(in.Data, dataFails)
		}
		if in.Func == "Sum" || in.Func == "Checksum" {
			in = classCandidates(in, fails)
		}
	}
	if t := in; t.Initial != 0 {
		if t.Initial = 0; fails(t) {
			in = t
		}
	}
	in.Splits = dropSplits(in, fails)
	if in.buffered() {
		in.Align = alignOf(s, len(in.Data))
	}
	if small := c.call(s, in); small != nil {
		return small
	}
	return ce // the implementation is not deterministic: keep what failed
}

// classMax is the longest candidate classCandidates tries.
const classMax = 8

// classCandidates tries, when the shrunk data is still longer than
// classMax bytes, the grid's content classes (exhaustive.go) at every
// length up to classMax, each onto its own initial value, and returns the
// first that fails, or in. A disagreement that needs an arithmetic
// coincidence resists byte removal: an implementation that drops the
// carry out of its last fold disagrees on about one input in
// 65536/(sum>>16), so removing or zeroing bytes almost never keeps it
// failing, while the to-ffff and to-10000 classes build such sums on
// purpose (a user review's bug came back as 406 and 2841 bytes from guard
// and properties, as 3 from exhaustive). At most 9 × 8 tries, with a fixed
// seed, so the result does not depend on the run's.
func classCandidates(in Input, fails func(Input) bool) Input {
	if len(in.Data) <= classMax {
		return in
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for n := range classMax + 1 {
		for _, cl := range classes {
			t := in
			t.Data = make([]byte, n)
			cl.fill(rng, t.Data, cl.initial)
			if t.Func == "Sum" {
				t.Initial = cl.initial
			}
			if fails(t) {
				return t
			}
		}
	}
	return in
}

// shrinkPieces shrinks each piece of a Digest's input (the bytes each
// write is given) in turn.
func shrinkPieces(in Input, fails func(Input) bool) Input {
	var pieces [][]byte
	prev := 0
	for _, end := range append(slices.Clone(in.Splits), len(in.Data)) {
		pieces = append(pieces, in.Data[prev:end])
		prev = end
	}
	// joined is in with piece k replaced by p.
	joined := func(k int, p []byte) Input {
		t := in
		t.Data, t.Splits = nil, nil
		for i, q := range pieces {
			if i == k {
				q = p
			}
			if i > 0 {
				t.Splits = append(t.Splits, len(t.Data))
			}
			t.Data = append(t.Data, q...)
		}
		return t
	}
	for k := range pieces {
		pieceFails := func(p []byte) bool { return fails(joined(k, p)) }
		pieces[k] = equiv.ShrinkBytes(pieces[k], pieceFails)
	}
	return joined(-1, nil)
}

// dropSplits removes each of in.Splits whose removal keeps in failing.
func dropSplits(in Input, fails func(Input) bool) []int {
	for i := 0; i < len(in.Splits); {
		t := in
		t.Splits = slices.Delete(slices.Clone(in.Splits), i, i+1)
		if fails(t) {
			in = t
		} else {
			i++
		}
	}
	return in.Splits
}

// shrinkUpdate zeroes the bytes of Update's arguments that the failure
// does not need.
func shrinkUpdate(u [3]uint16, fails func([3]uint16) bool) [3]uint16 {
	asBytes := func(u [3]uint16) []byte {
		b := make([]byte, 0, 6)
		for _, v := range u {
			b = binary.BigEndian.AppendUint16(b, v)
		}
		return b
	}
	asArgs := func(b []byte) (u [3]uint16) {
		for i := range u {
			u[i] = binary.BigEndian.Uint16(b[2*i:])
		}
		return u
	}
	b := equiv.ShrinkBytes(asBytes(u), func(b []byte) bool { return len(b) == 6 && fails(asArgs(b)) })
	return asArgs(b)
}

// longShrink is the longest input ShrinkBytes is given: its budget of tries,
// each summing the input twice, would take seconds on megabytes.
const longShrink = 1 << 16

// shrinkLong cuts an input longer than longShrink to the shortest failing
// prefix, then suffix, that a binary search finds (about 2·log2(len)
// tries): a bug that needs many bytes (an accumulator or a lane that
// overflows, a counter that wraps) keeps just as many.
func shrinkLong(d []byte, fails func([]byte) bool) []byte {
	if len(d) <= longShrink {
		return d
	}
	return equiv.ShrinkSuffix(equiv.ShrinkPrefix(d, fails), fails)
}
