package websockettest

import (
	"bytes"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
)

// The streamers' part of each method. Each compares whole streams (one
// count per stream) and compares nothing for a streamer the Impl lacks.
// docs/equivalence.md argues why the domains suffice.

// streamVectors streams RFC 6455 §5.7's "Hello": read from its masked
// octets in Reads of 1..6 octets over each of testing/iotest's readers,
// written in every split into Writes; each fresh and again after the
// whole frame and a Reset (§5.7's masked Ping response is the same
// payload under the same key, in a second frame), the reference's output
// checked against the RFC's. Then each failing reader and writer at every
// offset of the vector.
func (c *checker) streamVectors(r *equiv.Run) error {
	for size := 1; size <= 6; size++ {
		for kind := srcPlain; kind < srcFails; kind++ {
			for _, warm := range []int{0, len(rfcPlain)} {
				s := streamCase{fn: "MaskReader", payload: rfcMasked, key: rfcKey, cuts: everyN(size, len(rfcMasked)),
					kind: kind, warm: warm, warmSame: true}
				if err := c.streamVector(r, s, rfcPlain); err != nil {
					return err
				}
			}
		}
	}
	for split := range 1 << (len(rfcPlain) - 1) {
		for _, warm := range []int{0, len(rfcPlain)} {
			s := streamCase{fn: "MaskWriter", payload: rfcPlain, key: rfcKey, cuts: splitCuts(len(rfcPlain), split),
				warm: warm, warmSame: true, align: split}
			if err := c.streamVector(r, s, rfcMasked); err != nil {
				return err
			}
		}
	}
	count := tally(r)
	for at := 0; at <= len(rfcPlain); at++ {
		for _, s := range faultCases(rfcMasked, rfcPlain, rfcKey, []int{2}, at) {
			if err := count(c.checkStream(s, harnessArena{c, at})); err != nil {
				return err
			}
		}
	}
	return nil
}

// streamVector checks that the reference streams s to want (after the
// warm-up's own octets, want's prefix), then compares the implementation
// with it.
func (c *checker) streamVector(r *equiv.Run, s streamCase, want []byte) error {
	if !c.has(s.fn) {
		return nil
	}
	t := runStream(refStreams, s, refArena{&c.refBuf, s.align}, nil)
	full := append(bytes.Clone(want[:s.warm]), want...)
	if out := t.output(s); t.p != nil || !bytes.Equal(out, full) {
		return r.Errorf("reference %s streamed %x, want %x (RFC 6455 §5.7, %s): the oracle is wrong", s.fn, out, full, s.args())
	}
	return tally(r)(c.checkStream(s, harnessArena{c, s.align}))
}

// output is what the transcript of s streamed: a MaskReader's octets
// read, in order; a MaskWriter's warm-up writer's octets, then its
// writer's.
func (t transcript) output(s streamCase) []byte {
	var out []byte
	if s.fn == "MaskReader" {
		for _, c := range t.calls {
			out = append(out, c.data...)
		}
		return out
	}
	if s.warm > 0 && len(t.calls) > 0 {
		out = append(out, t.calls[0].data...)
	}
	if len(t.calls) > 1 || (s.warm == 0 && len(t.calls) == 1) {
		out = append(out, t.calls[len(t.calls)-1].data...)
	}
	return out
}

// splitCuts returns the cuts of split number split of n octets into
// calls: cut i (1 ≤ i < n) is in when bit i-1 of split is set, so that
// split = 0..2^(n-1)-1 gives every split into non-empty calls once.
func splitCuts(n, split int) []int {
	var cuts []int
	for i := 1; i < n; i++ {
		if split&(1<<(i-1)) != 0 {
			cuts = append(cuts, i)
		}
	}
	return cuts
}

// splits returns the number of splits of n octets into non-empty calls.
func splits(n int) int { return 1 << max(n-1, 0) }

// faultCases are the cases of every reader and writer kind that acts at
// an offset, at offset at, with the calls ending at cuts: wire through a
// MaskReader, plain through a MaskWriter.
func faultCases(wire, plain []byte, key [4]byte, cuts []int, at int) []streamCase {
	var out []streamCase
	for kind := srcFails; kind < srcNested; kind++ {
		out = append(out, streamCase{fn: "MaskReader", payload: wire, key: key, cuts: cuts, kind: kind, at: at})
	}
	for kind := sinkFails; kind < sinkNested; kind++ {
		out = append(out, streamCase{fn: "MaskWriter", payload: plain, key: key, cuts: cuts, kind: kind, at: at})
	}
	return out
}

// streamSplits streams every payload of 0..10 octets (12 at Standard, 14
// at Deep) in every split into non-empty calls, read over each of
// testing/iotest's readers and a nested MaskReader and written to a
// writer that takes all and to a nested one, each fresh, after a warm-up
// of 3 octets under the complement key and a Reset to another reader or
// writer, and after one through the same reader or writer and a Reset to
// it.
func (c *checker) streamSplits(r *equiv.Run) error {
	count := tally(r)
	data := make([]byte, 14)
	for n := 0; n <= equiv.Pick(r, 10, 12, 14); n++ {
		markers(data[:n], n)
		for split := range splits(n) {
			for _, w := range warmUps(n) {
				s := streamCase{payload: data[:n], key: keys[0], cuts: splitCuts(n, split), warm: w.n, warmHere: w.here, align: split & 63}
				for _, kind := range plainSources {
					s.fn, s.kind = "MaskReader", kind
					if err := count(c.checkStream(s, harnessArena{c, s.align})); err != nil {
						return err
					}
				}
				for _, kind := range plainSinks {
					s.fn, s.kind = "MaskWriter", kind
					if err := count(c.checkStream(s, harnessArena{c, s.align})); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// warmUp is one warm-up of streamSplits: its length, and whether it goes
// through the case's own reader or writer.
type warmUp struct {
	n    int
	here bool
}

// warmUps are the warm-ups of streamSplits for n octets: none, and 3
// octets (n if shorter) through another reader or writer and through the
// case's own.
func warmUps(n int) []warmUp {
	if n == 0 {
		return []warmUp{{}}
	}
	return []warmUp{{}, {min(3, n), false}, {min(3, n), true}}
}

// streamFaults streams every payload of 0..8 octets (9 at Standard, 10 at
// Deep) in every split into calls, over every reader and writer that
// fails, returns a short count or an invalid one, at every offset.
func (c *checker) streamFaults(r *equiv.Run) error {
	count := tally(r)
	data := make([]byte, 10)
	for n := 0; n <= equiv.Pick(r, 8, 9, 10); n++ {
		markers(data[:n], 2*n)
		for split := range splits(n) {
			for at := 0; at <= n; at++ {
				for _, s := range faultCases(data[:n], data[:n], keys[1], splitCuts(n, split), at) {
					if err := count(c.checkStream(s, harnessArena{c, (split + at) & 63})); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// streamLong streams payloads of every length m·512-1, m·512 and m·512+1
// for m = 1..32 (up to 16 KiB + 1): past every buffer size that is a
// multiple of 512 up to 16 KiB, once and more than once, so that a
// streamer that cuts a Write into pieces crosses its piece boundaries;
// each read in one call and over iotest.HalfReader, written whole, in two
// Writes split at an odd offset, and over writers that return EAGAIN
// just before the end or a short count in the middle of a piece.
func (c *checker) streamLong(r *equiv.Run) error {
	count := tally(r)
	data := make([]byte, 32*512+1)
	for m := 1; m <= 32; m++ {
		for l := m*512 - 1; l <= m*512+1; l++ {
			markers(data[:l], l)
			odd := []int{l/3 | 1}
			for _, s := range []streamCase{
				{fn: "MaskReader"},
				{fn: "MaskReader", cuts: odd},
				{fn: "MaskReader", kind: srcHalf},
				{fn: "MaskWriter"},
				{fn: "MaskWriter", cuts: odd},
				{fn: "MaskWriter", kind: sinkAgain, at: l - 1},
				{fn: "MaskWriter", kind: sinkShort, at: l/2 | 1, cuts: odd},
			} {
				s.payload, s.key, s.align = data[:l], keys[1], l&63
				if err := count(c.checkStream(s, harnessArena{c, s.align})); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// streamRandom streams random payloads up to 16 KiB with random keys,
// cuts (up to maxChunks), underlying kinds, offsets, warm-ups and
// alignments: 200 streams at Quick, 2,000 at Standard, 20,000 at Deep.
func (c *checker) streamRandom(r *equiv.Run) error {
	count := tally(r)
	for _, rng := range r.Iterations(equiv.Pick(r, 200, 2000, 20000)) {
		b := make([]byte, rng.IntN(1<<14))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		s := streamCase{fn: "MaskReader", payload: b, key: keyBytes(rng.Uint32()), kind: rng.IntN(numSources),
			at: rng.IntN(len(b) + 1), warm: min(rng.IntN(maxWarm+1), len(b)), warmSame: rng.IntN(2) == 0, align: rng.IntN(64),
			warmHere: rng.IntN(2) == 0}
		if rng.IntN(2) == 0 {
			s.fn, s.kind = "MaskWriter", rng.IntN(numSinks)
		}
		for range rng.IntN(maxChunks + 1) {
			s.cuts = append(s.cuts, rng.IntN(len(b)+1))
		}
		slices.Sort(s.cuts)
		if err := count(c.checkStream(s, harnessArena{c, s.align})); err != nil {
			return err
		}
	}
	return nil
}

// guardStreams reads and writes every length 0..GridLen with p flush
// against an unmapped page, at each edge, after a first call of 0..3
// octets (so at every key phase).
func (c *checker) guardStreams(count func(*equiv.Counterexample, bool) error, edges []edge) error {
	data := make([]byte, GridLen+3)
	for n := 0; n <= GridLen; n++ {
		for _, e := range edges {
			for phase := range 4 {
				markers(data[:phase+n], n)
				for _, fn := range []string{"MaskReader", "MaskWriter"} {
					s := streamCase{fn: fn, payload: data[:phase+n], key: keys[phase%2], cuts: []int{phase}}
					ce, compared := c.checkStream(s, edgeArena{c, e.at})
					if ce != nil {
						ce.Args += ", each p " + e.name
					}
					if err := count(ce, compared); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
