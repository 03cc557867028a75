package websockettest

import (
	"fmt"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// The boundary classes of the payload length: one for each path of the
// optimized code (docs/equivalence.md has the table). lenBounds[i] is the
// longest length of class lenClasses[i].
var (
	lenBounds  = [...]int{0, 3, 7, 15, 31, 128, 320, 1023, 1<<16 - 1, 4<<20 - 1, int(^uint(0) >> 1)}
	lenClasses = [...]string{"len=0", "len=1..3", "len=4..7", "len=8..15", "len=16..31",
		"len=32..128 (short path)", "len=129..320 (AVX2 loop)", "len=321..1023 (AVX-512 loop)",
		"len=1Ki..64Ki-1", "len=64Ki..4Mi-1", "len>=4Mi"}
)

func lenClass(n int) int {
	for i, b := range lenBounds {
		if n <= b {
			return i
		}
	}
	return len(lenBounds) - 1
}

// size records the length of one compared input (in the checker, flushed
// to the run when the method ends, so that the hot loops make no map
// lookups).
func (c *checker) size(n int) {
	if c.run != nil {
		c.run.Size(n)
		c.lens[lenClass(n)]++
	}
}

// flush reports the length classes counted to the run.
func (c *checker) flush() {
	for i, n := range c.lens {
		if n > 0 {
			c.run.ReachN(lenClasses[i], n)
		}
	}
}

// expectLens declares the length classes up to and including longest
// (one of lenClasses) that the method must reach, skipping those whose
// representative input the configuration puts out of scope.
func (c *checker) expectLens(r *equiv.Run, longest string) {
	for i, name := range lenClasses {
		if !c.excludedLen(lenBounds[max(i-1, 0)] + min(i, 1)) {
			r.Expect(name)
		}
		if name == longest {
			return
		}
	}
}

func (c *checker) excludedLen(n int) bool {
	return equiv.Excluded(c.cfg, Input{Func: "Mask", Payload: make([]byte, n), Key: keys[0]})
}

// expect declares each class the method must reach, unless its
// representative call is out of scope.
func (c *checker) expect(r *equiv.Run, classes ...classProbe) {
	for _, p := range classes {
		if !equiv.Excluded(c.cfg, p.in) {
			r.Expect(p.name)
		}
	}
}

// classProbe is a boundary class and a call in it.
type classProbe struct {
	name string
	in   Input
}

// boundaryLens are the lengths around every power of two from 2^8 to
// 2^16 (± 3), where hand-written code keeps 8- and 16-bit counters, and
// RFC 6455 §5.2's frame-length boundaries: 125/126 (7-bit length or
// 16-bit extended length) and 65535/65536 (16- or 64-bit).
func boundaryLens() []int {
	var out []int
	for k := 8; k <= 16; k++ {
		for d := -3; d <= 3; d++ {
			out = append(out, 1<<k+d)
		}
	}
	return append(out, 125, 126, 127)
}

// hugeLens are lengths past 4 MiB (2^22), where a 64-octet loop's
// iteration count passes 2^16, at both sides of an 8-octet head.
var hugeLens = []int{4<<20 + 3, 4<<20 + 67}

// farLens are the lengths around 1 MiB at which optimized/websocket's long
// loops start prefetching in place (past a Zen 5 core's L2 cache; MaskCopy
// into another buffer keeps the plain loop there): 2^20, the last
// length without, and 2^20+1+32k for k = 0..7, at which the loop that
// follows the prefetching one leaves 0 to 3 single blocks, each count
// twice, for 32- and for 64-octet blocks alike (at alignment 0: the count
// is (m-2) mod 4 for m aligned blocks, and m steps by one every 32 or 64
// octets).
var farLens = []int{1 << 20, 1<<20 + 1, 1<<20 + 33, 1<<20 + 65, 1<<20 + 97,
	1<<20 + 129, 1<<20 + 161, 1<<20 + 193, 1<<20 + 225}

// sizes checks the boundary lengths at four alignment and phase pairs,
// the lengths around 1 MiB (marker content, at alignments 0 and 37) and
// the huge ones (their content zero, so that a counterexample is not
// shrunk octet by octet, see minimized) with Mask and MaskCopy apart, each
// at its own alignment and phase.
func (c *checker) sizes(r *equiv.Run) error {
	count := tally(r)
	for _, n := range boundaryLens() {
		data := make([]byte, n)
		markers(data, n)
		for i, align := range []int{0, 1, 5, 63} {
			if err := count(c.checkBoth(data, keys[i%2], i, align, (align*7+3)&63)); err != nil {
				return err
			}
		}
		r.ReachN(boundaryClass(n), 4)
	}
	for i, n := range farLens {
		data := make([]byte, n)
		markers(data, n)
		for j, align := range []int{0, 37} {
			if err := c.bothApart(count, data, keys[j], i+j, align); err != nil {
				return err
			}
		}
	}
	for i, n := range hugeLens {
		if err := c.bothApart(count, make([]byte, n), keys[0], 3*i, 5*i); err != nil {
			return err
		}
	}
	return nil
}

// bothApart checks Mask on data placed at align and, if the implementation
// has MaskCopy, MaskCopy from there into a separate destination at
// alignment 63-align, counting each with count.
func (c *checker) bothApart(count func(*equiv.Counterexample, bool) error, data []byte, key [4]byte, pos, align int) error {
	if err := count(c.checkMask(data, key, pos, align)); err != nil {
		return err
	}
	if c.impl.MaskCopy == nil {
		return nil
	}
	return count(c.minimized(data, func(d []byte) (*equiv.Counterexample, bool) {
		return c.maskCopyApart(d, key, pos, align, 63-align, 0)
	}))
}

// boundaryClass names the class of a boundary length.
func boundaryClass(n int) string {
	switch {
	case n >= 125 && n <= 127:
		return "len=125..127 (7-bit frame length)"
	case n >= 1<<16-3:
		return "len=2^16±3 (16-bit frame length)"
	case n >= 1<<15-3 && n <= 1<<15+3:
		return "len=2^15±3"
	}
	return "len=2^k±3, k=8..14"
}

// keyClasses are keys whose octets are all zero, all one, all equal,
// equal in pairs, zero in one half or in all but one place: the keys for
// which a shortcut or a rotation bug of masking code can show.
var keyClasses = []struct {
	name string
	key  [4]byte
}{
	{"key=0", [4]byte{}},
	{"key=ff..", [4]byte{0xff, 0xff, 0xff, 0xff}},
	{"key one repeated octet", [4]byte{0x5a, 0x5a, 0x5a, 0x5a}},
	{"key two repeated octets", [4]byte{0x12, 0xc4, 0x12, 0xc4}},
	{"key first half zero", [4]byte{0, 0, 0xc3, 0x7e}},
	{"key second half zero", [4]byte{0x9d, 0xe1, 0, 0}},
	{"key one nonzero octet", [4]byte{0, 0, 0, 0x81}},
	{"key one nonzero octet", [4]byte{0, 0, 0x81, 0}},
	{"key one nonzero octet", [4]byte{0, 0x81, 0, 0}},
	{"key one nonzero octet", [4]byte{0x81, 0, 0, 0}},
}

// keyCross checks every key class at every length 0..300 (past the 8-,
// 16-, 32-, 64- and 128-octet strides), every phase, at three alignments.
func (c *checker) keyCross(r *equiv.Run) error {
	count := tally(r)
	data := make([]byte, 300)
	for _, kc := range keyClasses {
		before := r.Checked()
		for n := 0; n <= len(data); n++ {
			markers(data[:n], n+int(kc.key[3]))
			for pos := range 4 {
				for _, align := range []int{0, 3, 13} {
					if err := count(c.checkBoth(data[:n], kc.key, pos, align, (align+n)&63)); err != nil {
						return err
					}
				}
			}
		}
		r.ReachN(kc.name, r.Checked()-before)
	}
	return nil
}

// alignLens are the lengths at which alignPairs tries every pair of
// src and dst alignments: each side of the short path's end, of the AVX2
// and AVX-512 loops' starts, and a length at which the 256-octet loop
// runs twice.
var alignLens = []int{15, 64, 129, 321, 705}

// alignPairs checks MaskCopy at every pair of src and dst alignments mod
// 64 at the alignLens.
func (c *checker) alignPairs(r *equiv.Run) error {
	if c.impl.MaskCopy == nil {
		return nil
	}
	count := tally(r)
	before := r.Checked()
	for _, n := range alignLens {
		data := make([]byte, n)
		markers(data, n)
		for align := range 64 {
			for dstAlign := range 64 {
				ce, ok := c.minimized(data, func(d []byte) (*equiv.Counterexample, bool) {
					return c.maskCopyApart(d, keys[0], align+dstAlign, align, dstAlign, 0)
				})
				if err := count(ce, ok); err != nil {
					return err
				}
			}
		}
	}
	r.ReachN("src×dst alignment pairs 64×64", r.Checked()-before)
	return nil
}

// slacks are the lengths by which dst exceeds src in dstSlack.
var slacks = []int{1, 2, 3, 7, 8, 9, 63, 64}

// dstSlack checks MaskCopy into a dst longer than src, whose octets past
// len(src) must stay as they were, at every length 0..300.
func (c *checker) dstSlack(r *equiv.Run) error {
	if c.impl.MaskCopy == nil {
		return nil
	}
	count := tally(r)
	before := r.Checked()
	data := make([]byte, 300)
	for n := 0; n <= len(data); n++ {
		markers(data[:n], 5*n)
		for i, slack := range slacks {
			ce, ok := c.minimized(data[:n], func(d []byte) (*equiv.Counterexample, bool) {
				return c.maskCopyApart(d, keys[i%2], n+i, n&63, (5*n+i)&63, slack)
			})
			if err := count(ce, ok); err != nil {
				return err
			}
		}
	}
	r.ReachN("len(dst) > len(src)", r.Checked()-before)
	return nil
}

// overlapLens are the src lengths of overlaps.
var overlapLens = []int{1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200, 321}

// overlaps checks MaskCopy with dst and src in one array at distances
// -(n+2)..n+2 of their starts (dst before or after src; every one near
// the ends of the range, see overlapDistance), dst as long as src, one
// octet shorter (two preconditions broken at once where they overlap: the
// reference's panic, for the short dst, must win) or, where that is no
// inexact overlap, 5 octets longer: an inexact overlap must panic as the
// reference does, an exact one (distance 0, in place with a longer dst)
// or none must mask, leaving the rest of the array alone.
func (c *checker) overlaps(r *equiv.Run) error {
	if c.impl.MaskCopy == nil {
		return nil
	}
	count := tally(r)
	for _, n := range overlapLens {
		data := make([]byte, n)
		markers(data, n)
		for d := -(n + 2); d <= n+2; d++ {
			if !overlapDistance(n, d) {
				continue
			}
			slacks := []int{0, -1} // a dst one short: that panic first, whatever the overlap
			if d == 0 || max(d, -d) >= n {
				slacks = append(slacks, 5) // no panic: the slack must stay
			}
			for _, slack := range slacks {
				ce, ok := c.checkOverlap(data, keys[1], n+d, d, slack)
				if err := count(ce, ok); err != nil {
					return err
				}
				if ok {
					r.Reach(overlapClass(d, slack))
				}
			}
		}
	}
	return nil
}

// overlapClass names the class of dst at distance d from src.
func overlapClass(d, slack int) string {
	switch {
	case d > 0:
		return "overlap: every distance, dst after src"
	case d < 0:
		return "overlap: every distance, dst before src"
	case slack > 0:
		return "overlap: exact, dst longer"
	}
	return "overlap: exact"
}

// overlapDistance reports whether overlaps tries distance d at length n:
// every distance up to 17 octets from either end of the overlapping range
// (past a word and a 16-octet vector), and every multiple of 16 between.
func overlapDistance(n, d int) bool {
	a := max(d, -d)
	return a <= 17 || a >= n-17 || a%16 == 0
}

// overlapArray returns the contents of the array in which checkOverlap
// lays out src and dst, dst starting dist octets after src (before it if
// negative), with room on both sides (markers, and payload at src), and
// where src and dst lie in it.
func overlapArray(payload []byte, dist, dstLen int) (all []byte, src, dst [2]int) {
	n := len(payload)
	base := 16 + max(-dist, 0)
	all = make([]byte, base+max(n, dist+dstLen)+16)
	markers(all, 7)
	copy(all[base:], payload)
	return all, [2]int{base, base + n}, [2]int{base + dist, base + dist + dstLen}
}

// cut returns all[r[0]:r[1]] with no capacity past it.
func cut(all []byte, r [2]int) []byte { return all[r[0]:r[1]:r[1]] }

// checkOverlap compares MaskCopy with dst dist octets from src and slack
// octets longer: the panic, or the whole array and the position. The
// implementation's array is placed as MaskCopy's dst, all of it writable
// (the suite compares all of it with the reference's, laid out alike in
// a Buffer of the checker's own).
func (c *checker) checkOverlap(payload []byte, key [4]byte, pos, dist, slack int) (*equiv.Counterexample, bool) {
	return c.minimized(payload, func(p []byte) (*equiv.Counterexample, bool) {
		if len(p)+slack < 0 {
			return nil, false
		}
		contents, srcAt, dstAt := overlapArray(p, dist, len(p)+slack)
		align := (len(p) + dist) & 63
		k := c.h.Call(cMaskCopy)
		defer k.End()
		all := k.Prefix(0, contents, align, len(contents))
		dst, src := cut(all, dstAt), cut(all, srcAt)
		if equiv.Excluded(c.cfg, Input{Func: "MaskCopy", Payload: src, Dst: dst, Key: key, Pos: pos}) {
			return nil, false
		}
		c.size(len(p))
		refAll := c.refBuf.Slot(len(contents), align)
		copy(refAll, contents)
		want := maskCopy(ref.MaskCopy, cut(refAll, dstAt), cut(refAll, srcAt), key, pos)
		got := c.callMaskCopy(k, dst, src, key, pos)
		want.out, got.out = refAll, all
		if got.wrong != "" {
			got.wrong = "wrote outside the array"
		}
		if c.agree(got, want) {
			return nil, true
		}
		s := site{fn: "MaskCopy", payload: p, key: key, pos: pos, plan: plan{dstSlack: slack, overlap: dist, overlaps: true},
			args: fmt.Sprintf("dst=src%+d len(dst)=%d (out is the whole array, %s)", dist, len(dst), layout(equiv.WritesPrefix, len(contents), align, len(contents)))}
		return s.failure(got, want), true
	})
}

// streamCalls streams payloads in 2^8-3 .. 2^8+3 calls of 3 octets (a
// length that moves the key phase every call), read and written, so that
// a streamer counting its calls in 8 bits wraps.
func (c *checker) streamCalls(r *equiv.Run) error {
	count := tally(r)
	before := r.Checked()
	for calls := 1<<8 - 3; calls <= 1<<8+3; calls++ {
		data := make([]byte, 3*calls)
		markers(data, calls)
		for _, fn := range []string{"MaskReader", "MaskWriter"} {
			s := streamCase{fn: fn, payload: data, key: keys[0], cuts: everyN(3, len(data)), align: calls & 63}
			if err := count(c.checkStream(s, harnessArena{c, s.align})); err != nil {
				return err
			}
		}
	}
	if n := r.Checked() - before; n > 0 {
		r.ReachN("stream calls=2^8±3", n)
	}
	return nil
}
