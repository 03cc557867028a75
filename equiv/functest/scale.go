package functest

import (
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
)

// scaleMaxK is the largest power of two of a derived scale method's sizes
// at each level: 1 MiB at Quick (a user's reference may be a loop of
// tens of MB/s), 16 MiB at Standard, 64 MiB at Deep.
func scaleMaxK(r *equiv.Run) int { return equiv.Pick(r, 20, 24, 26) }

// windows are the boundary classes the scale method places in random
// filler: a run of zeros, a run of 0xFF, a lone 0x80 and an alternating
// run.
var windows = [][]byte{make([]byte, 16), slices.Repeat([]byte{0xff}, 16), {0x80}, slices.Repeat([]byte{0xff, 0}, 8)}

// runScale checks each []byte, string and reader parameter at sizes
// around every power of two from 1 KiB to scaleMaxK (equiv.ScaleSizes,
// largest first, one unit of Run.Mine each), with each boundary class in
// turn placed at the size's scale points (equiv.ScalePoints), at an
// alignment that puts it flush against a page at its end, at its start,
// or neither, by turns, and all zero and all 0xFF whole; then, from two goroutines released together for
// each round (Run.Overlap), the function on inputs of 64 KiB, unless it
// is Serial.
func runScale(c *checker, r *equiv.Run) error {
	sizes := []int{}
	for _, n := range equiv.ScaleSizes(r) {
		if n <= 1<<scaleMaxK(r)+64 {
			sizes = append(sizes, n)
		}
	}
	slices.Sort(sizes)
	slices.Reverse(sizes)
	filler := make([]byte, sizes[0])
	fillClass(rand.New(rand.NewPCG(r.Config().Seed(), 0x5ca1e)), filler, classRandom)
	unit := 0
	for i, p := range c.s.params {
		if p.kind != kBytes && p.kind != kString && p.kind != kReader || p.maxLen > 0 && p.maxLen < equiv.ScaleMin {
			continue
		}
		for _, n := range sizes {
			if r.Mine(unit) {
				if ce := c.scaleSize(r, i, filler[:n]); ce != nil {
					return r.Fail(ce)
				}
			}
			unit++
		}
	}
	if !c.s.serial {
		if ce := c.scaleOverlap(r, filler); ce != nil {
			return r.Fail(ce)
		}
	}
	return nil
}

// scaleSize checks parameter i holding data, random filler, with each
// window in turn at each of its scale points; then holding n octets all
// zero and n octets all 0xFF (wholeClasses), flush against a page at
// their end.
func (c *checker) scaleSize(r *equiv.Run, i int, data []byte) *equiv.Counterexample {
	n := len(data)
	p := c.s.params[i]
	rng := rand.New(rand.NewPCG(r.Config().Seed(), uint64(n)))
	base := c.s.baseArgs()
	saved := make([]byte, 16)
	for j, at := range equiv.ScalePoints(r, rng, n, 16) {
		w := windows[j%len(windows)]
		end := min(at+len(w), n)
		copy(saved, data[at:end])
		copy(data[at:end], w)
		args := c.s.cycled(base, i, j)
		args[i] = p.scaleArg(data, j)
		align := equiv.ScaleAlign(rng, n, j)
		ce := c.compare(args, align)
		copy(data[at:end], saved)
		if ce != nil {
			return ce
		}
	}
	whole := make([]byte, n)
	for k, cl := range wholeClasses {
		fillClass(rng, whole, cl)
		args := c.s.cycled(base, i, k)
		args[i] = p.scaleArg(whole, k)
		if ce := c.compare(args, -n&63); ce != nil {
			ce.Args += " class=" + contentClasses[cl]
			return ce
		}
	}
	return nil
}

// wholeClasses are the content classes the scale method checks whole at
// every size, besides the random filler: all zero and all 0xFF, the
// extremes of an accumulator. A bound that only long runs of high octets
// reach, such as zlib's NMAX for Adler-32 (5552 octets from sums of
// 65520; 5803 is right for the first block only, madler/zlib#356), is
// met there and nowhere in random filler with 16-octet windows.
var wholeClasses = []int{0, 1}

// scaleArg is data as an argument of p's kind: a reader over it hands it
// out whole in single Reads, or one octet at a time, by turns.
func (p *param) scaleArg(data []byte, j int) reflect.Value {
	if p.kind == kReader {
		return reflect.ValueOf(readerArg{Data: data, Kind: j % 2})
	}
	return p.fromBytes(data)
}

// scaleOverlap checks, from two goroutines released together for each
// round (Run.Overlap, with Harness.Before so that the two calls of the
// implementation start together), the function on arguments of the
// vectors' and the boundaries' kinds, with 64 KiB of filler in every
// []byte and string parameter.
func (c *checker) scaleOverlap(r *equiv.Run, filler []byte) *equiv.Counterexample {
	n := min(len(filler)/2, 64<<10)
	base := c.s.baseArgs()
	var lanes []*checker
	err := r.Overlap(equiv.Pick(r, 16, 64, 256), func(cfg *equiv.Config) func(lane, round int, wait func()) (int, error) {
		compared := 0
		lc := newChecker(c.s, cfg, func(k int) { compared += k })
		lanes = append(lanes, lc)
		return func(lane, round int, wait func()) (int, error) {
			args := c.s.cycled(base, -1, round)
			for i, p := range c.s.params {
				if p.kind == kBytes || p.kind == kString {
					at := (lane*n/2 + round*4099) % (len(filler) - n + 1)
					args[i] = p.fromBytes(filler[at : at+n-round%2])
				}
			}
			before := compared
			lc.h.Before(wait)
			ce := lc.compare(args, round&63)
			if lc.h.Before(nil) {
				wait()
			}
			if ce != nil {
				return compared - before, ce
			}
			return compared - before, nil
		}
	})
	for _, lc := range lanes {
		lc.release()
	}
	if err == nil {
		return nil
	}
	if ce, ok := err.(*equiv.Counterexample); ok {
		return ce
	}
	return &equiv.Counterexample{Func: c.s.name, Got: err.Error(), Want: "no error"}
}
