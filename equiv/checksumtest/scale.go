package checksumtest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// runScale checks what only large inputs and long use reach: Sum,
// Checksum and a Digest at sizes around every power of two from 1 KiB to
// 4 MiB (64 MiB at Standard; equiv.ScaleSizes), each with a boundary
// class of content placed just before, across and after the powers of
// two and the quarters of the input (equiv.ScalePoints); Put and
// VerifyUDP on buffers of 32 KiB and more; a Digest fed a long history of
// writes, then reused across Resets; calls from two goroutines at once
// (equiv.Run.Overlap); and, at Standard and Deep, a Digest fed more than
// 2^32 octets. Each size is a unit of Run.Mine, the largest first, so that
// one buffer of the largest serves every size; the other parts run on
// every shard and in every sample, so that each function meets every
// mechanism in any part of the method.
func runScale(c *checker, r *equiv.Run) error {
	sizes := equiv.ScaleSizes(r)
	slices.Sort(sizes)
	slices.Reverse(sizes)
	filler := make([]byte, sizes[0])
	fillRandom(0)(rand.New(rand.NewPCG(r.Config().Seed(), 0x5ca1e)), filler, 0)
	// The parts first: each takes a second or less at Quick, and a bug
	// they catch (a Digest gone lazy after hundreds of Writes) should not
	// wait for every size's megabytes.
	for _, part := range []func(*checker, *equiv.Run, []byte) *equiv.Counterexample{scaleHelpers, scaleHistory, scaleOverlap, scaleDigest4G} {
		if ce := part(c, r, filler); ce != nil {
			return r.Fail(ce)
		}
	}
	for i, n := range sizes {
		if !r.Mine(i) {
			continue
		}
		if ce := scaleSize(c, r, filler[:n]); ce != nil {
			return r.Fail(ce)
		}
	}
	return nil
}

// window is a boundary class of content a scale input carries at one of
// its points, over random filler.
type window struct {
	name string
	data []byte
}

// windows are the scale method's boundary classes: a chain of 0xFF
// octets (every word carries, and an odd offset swaps it), zeros (a
// kernel that drops a block or sums one twice shows only where the
// block's sum is not zero), a lone 0x80 (a carry out of one lane's high
// word) and an alternating run (every word 0xFF00).
var windows = []window{
	{"ff-run", slices.Repeat([]byte{0xff}, 24)},
	{"zeros", make([]byte, 24)},
	{"lone-80", []byte{0x80}},
	{"alternating", slices.Repeat([]byte{0xff, 0x00}, 12)},
}

// scaleSize checks Sum (with each initial value in turn), Checksum and a
// Digest on data, random filler, with each window in turn at each of its
// scale points, at an alignment that puts it flush against a page at the
// end, at the start, or neither, in turn (equiv.Edge).
func scaleSize(c *checker, r *equiv.Run, data []byte) *equiv.Counterexample {
	n := len(data)
	rng := rand.New(rand.NewPCG(r.Config().Seed(), uint64(n)))
	saved := make([]byte, 32)
	for j, at := range equiv.ScalePoints(r, rng, n, 24) {
		w := windows[j%len(windows)]
		end := min(at+len(w.data), n)
		copy(saved, data[at:end])
		copy(data[at:end], w.data)
		r.Reach("scale: " + w.name)
		align := equiv.ScaleAlign(rng, n, j)
		ce := c.sum(aligned(align), data, initials[j%len(initials)])
		if ce == nil && j%2 == 0 {
			ce = c.checksum(aligned(align), data)
		}
		copy(data[at:end], saved)
		if ce != nil {
			ce.Args += fmt.Sprintf(" (scale: %s at %d)", w.name, at)
			return ce
		}
	}
	// One Digest per size: a single Write of the whole, or Writes ending
	// at the powers of two below it, by turns.
	var splits []int
	if n&1 == 0 {
		for b := 64; b < n; b *= 2 {
			splits = append(splits, b)
		}
	}
	return c.digest(aligned(n&63), data, splits)
}

// scaleHelpers checks Put into buffers of ScaleMin octets and more (it
// writes the first two only) and VerifyUDP on segments of 32 KiB, the
// IPv4 limit and IPv6 jumbograms past it, valid and with one octet
// changed.
func scaleHelpers(c *checker, r *equiv.Run, filler []byte) *equiv.Counterexample {
	rng := rand.New(rand.NewPCG(r.Config().Seed(), 0x4e1))
	for i, n := range []int{equiv.ScaleMin, equiv.ScaleMin + 1, 0xffff, 0x10000, 0x10001, 1 << 20} {
		n = min(n, len(filler))
		b := slices.Clone(filler[:n])
		if ce := c.put(aligned([2]int{62, 0}[i%2]), b, uint16(rng.Uint32())); ce != nil {
			return ce
		}
		src, dst := v4src, v4dst
		if n > 0xffff {
			src, dst = v6src, v6dst
		}
		fillSegment(rng, b, src, dst, i%2 == 0)
		if ce := c.verifyUDP(aligned(-n&63), src, dst, b); ce != nil {
			return ce
		}
		b[rng.IntN(n)] ^= 0x10
		if ce := c.verifyUDP(aligned(0), src, dst, b); ce != nil {
			return ce
		}
	}
	return nil
}

// scaleHistory feeds one Digest a long history of writes of mixed sizes
// (equiv.History: empty ones, single octets, 32 KiB and more), comparing
// Sum16 with the reference's Digest fed the same after each, then Sum,
// Size and BlockSize; then reuses it, Reset between, for a Digest check of
// each of the first 64 lengths of filler.
func scaleHistory(c *checker, r *equiv.Run, filler []byte) *equiv.Counterexample {
	if c.impl.New == nil {
		return nil
	}
	rng := rand.New(rand.NewPCG(r.Config().Seed(), 0x415))
	var ce *equiv.Counterexample
	c.h.Marking(equiv.MechHistory, func() { ce = c.history(r, rng, filler) })
	return ce
}

// history is scaleHistory's work, its calls counted as a history.
func (c *checker) history(r *equiv.Run, rng *rand.Rand, filler []byte) *equiv.Counterexample {
	d, model := c.newDigest(), ref.New()
	fed, calls := 0, 0
	in := func(problem string, want uint16) *equiv.Counterexample {
		return mismatch(site{}, Input{Func: "Digest"}, fmt.Sprintf("after %d writes of %d octets in all: %s", calls, fed, problem), fmt.Sprintf("Sum16() = %#04x", want), nil)
	}
	for n := range equiv.History(rng) {
		at := rng.IntN(len(filler) - n + 1)
		if p := c.writeTo(d, filler[at:at+n], calls&63); p != "" {
			return in(p, model.Sum16())
		}
		model.Write(filler[at : at+n])
		fed, calls = fed+n, calls+1
		if got, want := c.sum16(d), model.Sum16(); got != want {
			return in(fmt.Sprintf("Sum16() = %#04x", got), want)
		}
		r.Count(1)
	}
	if calls > 0 {
		if p := c.digestContract(d, fed, model.Sum16()); p != "" {
			return in(p, model.Sum16())
		}
	}
	var ce *equiv.Counterexample
	c.h.Marking(equiv.MechReuse, func() { ce = c.reuse(r, d, filler) })
	return ce
}

// writeTo writes p to d, placed by the harness at align, and describes a
// wrong count or a memory flaw, or returns "".
func (c *checker) writeTo(d Digest, p []byte, align int) string {
	k := c.h.Call(cWrite)
	defer k.End()
	b := k.Bytes(0, p, align)
	if n, err := d.Write(b); n != len(p) || err != nil {
		return fmt.Sprintf("Write(%d octets) = %d, %v", len(p), n, err)
	}
	if len(p) >= equiv.ScaleMin {
		k.Mark(equiv.MechScale)
	}
	if f := k.Flaw(); f != "" {
		return fmt.Sprintf("Write(%d octets %s) %s", len(p), k.Layout(0), f)
	}
	return ""
}

// reuse checks d, Reset before each, as a new Digest on each of the first
// 64 lengths of filler, fed in two writes.
func (c *checker) reuse(r *equiv.Run, d Digest, filler []byte) *equiv.Counterexample {
	for n := range 64 {
		c.h.Note(cReset)
		d.Reset()
		data := filler[:n]
		half := n / 2
		p := c.writeTo(d, data[:half], n)
		if p == "" {
			p = c.writeTo(d, data[half:], n+1)
		}
		want := ref.Sum(data, 0)
		if p == "" {
			if got := c.sum16(d); got != want {
				p = fmt.Sprintf("Sum16() = %#04x", got)
			}
		}
		if p == "" {
			p = c.digestContract(d, n, want)
		}
		if p != "" {
			in := Input{Func: "Digest", Data: slices.Clone(data), Splits: []int{half}}
			return mismatch(site{}, in, "a Digest reused after Reset: "+p, fmt.Sprintf("Sum16() = %#04x", want), nil)
		}
		r.Count(1)
	}
	return nil
}

// scaleOverlap checks, from two goroutines released together for each
// round, every function on an input of up to 1 MiB of filler (each
// lane's and round's its own, odd and even lengths by turns), as the
// fuzz target checks one input, with every helper's section in its plan:
// each lane's first call of the implementation in a round waits for the
// other's (equiv.Harness.Before), its input placed and the reference's
// result computed, so that the two start together, and every function
// runs while another call of it is in flight.
func scaleOverlap(c *checker, r *equiv.Run, filler []byte) *equiv.Counterexample {
	n := min(len(filler)/2, 1<<20)
	p := plan{update: &[3]uint16{0xdead, 0x1234, 0x4321}, words: &wordArgs{next: 0xbeef, offset: 3},
		addrs: &addrArgs{src: v6src, dst: v6dst, proto: 17, length: 0x10001}}
	var lanes []*checker
	err := r.Overlap(equiv.Pick(r, 16, 32, 128), func(cfg *equiv.Config) func(lane, round int, wait func()) (int, error) {
		compared := 0
		lc := newChecker(c.impl, cfg, func(k int) { compared += k })
		lanes = append(lanes, lc)
		return func(lane, round int, wait func()) (int, error) {
			at := (lane*n/2 + round*4099) % (len(filler) - n + 1)
			before := compared
			lc.h.Before(wait)
			ce := lc.checkAll(filler[at:at+n-round%2], uint16(round), p)
			if lc.h.Before(nil) {
				wait() // no call ran: the other lane must not wait for this one
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
	return &equiv.Counterexample{Func: "?", Got: err.Error(), Want: "no error"}
}

// scaleDigest4G feeds a Digest, at Standard and Deep, 4097 writes of the
// same MiB of filler and then 3 octets: more than 2^32 octets in all, past
// where a 32-bit count of octets or a lazily folded accumulator wraps.
// The reference's sum of it is the sum of the MiB's sum 4097 times, then
// the tail's, by ref.Combine (sound: the writes before the tail are of
// even length, so every one starts at an even offset, and the one's
// complement sum of a concatenation at even offsets is the one's
// complement sum of the parts' sums, RFC 1071 §2(A) and (C)).
func scaleDigest4G(c *checker, r *equiv.Run, filler []byte) *equiv.Counterexample {
	if r.Level() == equiv.Quick || len(filler) < 1<<20 || c.impl.New == nil {
		return nil
	}
	chunk, tail := filler[:1<<20], filler[1<<20:1<<20+3]
	part := ref.Sum(chunk, 0)
	want := uint16(0)
	d := c.newDigest()
	const writes = 4097
	for i := range writes {
		if p := c.writeTo(d, chunk, i&63); p != "" {
			return mismatch(site{}, Input{Func: "Digest"}, fmt.Sprintf("after %d MiB: %s", i, p), "", nil)
		}
		want = ref.Combine(want, part, 0)
	}
	c.writeTo(d, tail, 0)
	want = ref.Combine(want, ref.Sum(tail, 0), 0)
	var got uint16
	c.h.Marking(equiv.MechScale, func() { got = c.sum16(d) })
	r.Count(1)
	if got != want {
		return mismatch(site{}, Input{Func: "Digest"}, fmt.Sprintf("after %d MiB and 3 octets: Sum16() = %#04x", writes, got), fmt.Sprintf("Sum16() = %#04x", want), nil)
	}
	return nil
}
