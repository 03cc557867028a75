package websockettest

import (
	"math"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
)

// keys are the keys of the grid: RFC 6455 §5.7's key, whose four octets
// are distinct, so that every output octet shows which key octet was used;
// and a second key with distinct octets and every bit set somewhere.
var keys = [][4]byte{{0x37, 0xfa, 0x21, 0x3d}, {0x80, 0x01, 0xff, 0x5a}}

// positions are the pos values beyond 0..3: only pos&3 may matter.
var positions = []int{4, 5, 6, 7, math.MaxInt >> 1, math.MaxInt>>1 + 3, -1, -2, -3, -4,
	math.MaxInt, math.MaxInt - 1, math.MaxInt - 2, math.MinInt, math.MinInt + 1}

// exhaustive enumerates, one axis per part: first domain.go's crossings
// of Mask and MaskCopy, each short (every overlap distance, a dst longer
// than src, the key classes × lengths × phases, every pair of src and dst
// alignments, the boundary lengths up to past 4 MiB), so that a bug they
// reach is found within the first second; then the grid of lengths ×
// alignments × phases × keys, positions beyond 0..3, splits into calls,
// and random payloads beyond the grid; then, for the streamers, every
// split of short payloads over every underlying reader and writer, every
// fault at every offset, lengths past every piece size, random streams,
// and streams of 2^8 ± 3 calls (last: their calls are 3 octets each, so
// a bug the others reach is reported by them, with fewer octets). (The
// crossings draw nothing from the random source,
// and each random part keeps its place among the others, so that each
// draws what it drew before the crossings existed.)
func (c *checker) exhaustive(r *equiv.Run) error {
	// The random sweeps, the longest parts at Deep, divide their
	// iterations among the shards (Run.Iterations) and so run on every
	// shard; every other part runs whole on the shard Run.Mine gives it.
	parts := []struct {
		run   func(*equiv.Run) error
		split bool
	}{{c.overlaps, false}, {c.dstSlack, false}, {c.keyCross, false}, {c.alignPairs, false}, {c.sizes, false},
		{c.grid, false}, {c.positions, false}, {c.allSplits, false}, {c.random, true},
		{c.streamSplits, false}, {c.streamFaults, false}, {c.streamLong, false}, {c.streamRandom, true},
		{c.streamCalls, false}}
	c.expectExhaustive(r)
	for i, part := range parts {
		if !part.split && !r.Mine(i) {
			continue // another shard's part (the method is Split)
		}
		if err := part.run(r); err != nil {
			return err
		}
	}
	return nil
}

// grid checks every length 0..GridLen × alignment 0..63 × pos 0..3 × key,
// marker content; MaskCopy also with its destination at another alignment.
func (c *checker) grid(r *equiv.Run) error {
	count := tally(r)
	data := make([]byte, GridLen)
	for n := 0; n <= GridLen; n++ {
		if !r.Thin(n) {
			continue // go test -short: another sample's length
		}
		markers(data[:n], n)
		for align := range 64 {
			for pos := range 4 {
				for _, key := range keys {
					if err := count(c.checkMask(data[:n], key, pos, align)); err != nil {
						return err
					}
					if err := count(c.checkMaskCopy(data[:n], key, pos, align, (align*7+pos)%64)); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// widePositions are pos values around 2^31 and 2^32 (±3, both signs),
// where code that keeps the position in 32 bits wraps: on a 64-bit int.
// (Built at run time, so that the package compiles where int has 32
// bits; there they wrap to other values that are still valid ints.)
var widePositions = func() []int {
	var out []int
	for _, p := range []int64{1 << 31, 1 << 32, -1 << 31, -1 << 32} {
		for d := int64(-3); d <= 3; d++ {
			out = append(out, int(p+d))
		}
	}
	return out
}()

// positions checks pos beyond 0..3 (large, negative, near the int limits
// and around 2^31 and 2^32) at every length, at an alignment that varies
// with both.
func (c *checker) positions(r *equiv.Run) error {
	count := tally(r)
	data := make([]byte, GridLen)
	all := append(slices.Clone(positions), widePositions...)
	for n := 0; n <= GridLen; n++ {
		markers(data[:n], 3*n)
		for _, pos := range all {
			align := (n + pos&63) & 63
			if err := count(c.checkBoth(data[:n], keys[1], pos, align, 63-align)); err != nil {
				return err
			}
		}
	}
	for _, pos := range all {
		r.ReachN(posClass(pos), GridLen+1) // one check of each length
	}
	return nil
}

// posClass names pos's boundary class.
func posClass(pos int) string {
	switch {
	case pos == math.MinInt || pos == math.MaxInt:
		return "pos=MinInt or MaxInt"
	case pos < 0:
		return "pos<0"
	case pos > math.MaxInt32:
		return "pos>2^31 (past 32 bits)"
	}
	return "pos=4..2^31"
}

// expectExhaustive declares the classes exhaustive reaches by
// construction (each unless its representative call is out of scope).
func (c *checker) expectExhaustive(r *equiv.Run) {
	c.expectLens(r, "len>=4Mi")
	b := make([]byte, 1<<16)
	probes := []classProbe{
		{"len=125..127 (7-bit frame length)", Input{Func: "Mask", Payload: b[:126]}},
		{"len=2^k±3, k=8..14", Input{Func: "Mask", Payload: b[:256]}},
		{"len=2^15±3", Input{Func: "Mask", Payload: b[:1<<15]}},
		{"len=2^16±3 (16-bit frame length)", Input{Func: "Mask", Payload: b[:1<<16]}},
		{"pos<0", Input{Func: "Mask", Payload: b[:1], Pos: -1}},
		{"pos=MinInt or MaxInt", Input{Func: "Mask", Payload: b[:1], Pos: math.MinInt}},
	}
	if math.MaxInt > math.MaxInt32 {
		probes = append(probes, classProbe{"pos>2^31 (past 32 bits)", Input{Func: "Mask", Payload: b[:1], Pos: widePositions[3]}})
	}
	for _, kc := range keyClasses {
		probes = append(probes, classProbe{kc.name, Input{Func: "Mask", Payload: b[:64], Key: kc.key}})
	}
	if c.has("MaskReader") || c.has("MaskWriter") {
		probes = append(probes, classProbe{"stream calls=2^8±3", Input{Func: "MaskReader", Payload: b[:771], Splits: everyN(3, 771)}})
	}
	if c.impl.MaskCopy != nil {
		cp := Input{Func: "MaskCopy", Payload: b[:64], Dst: b[64:200]}
		probes = append(probes, classProbe{"src×dst alignment pairs 64×64", cp}, classProbe{"len(dst) > len(src)", cp},
			classProbe{"overlap: every distance, dst after src", Input{Func: "MaskCopy", Payload: b[:64], Dst: b[1:65]}},
			classProbe{"overlap: every distance, dst before src", Input{Func: "MaskCopy", Payload: b[1:65], Dst: b[:64]}},
			classProbe{"overlap: exact, dst longer", Input{Func: "MaskCopy", Payload: b[:64], Dst: b[:69]}})
	}
	c.expect(r, probes...)
}

// allSplits checks every split of payloads up to 64 bytes (96 at Standard
// and Deep) into three calls, empty ones included, at every starting phase.
func (c *checker) allSplits(r *equiv.Run) error {
	data := make([]byte, 96)
	for n := 0; n <= equiv.Pick(r, 64, 96, 96); n++ {
		markers(data[:n], n)
		for pos := range 4 {
			if err := c.splits(r, data[:n], keys[0], pos); err != nil {
				return err
			}
		}
	}
	return nil
}

// random checks random content, keys, positions and alignments at lengths
// beyond the grid (below 4 KiB at Quick, 64 KiB at Deep).
func (c *checker) random(r *equiv.Run) error {
	count := tally(r)
	for _, rng := range r.Iterations(equiv.Pick(r, 2000, 20000, 200000)) {
		b := make([]byte, rng.IntN(1<<equiv.Pick(r, 12, 14, 16)))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		key := keyBytes(rng.Uint32())
		pos, align := int(rng.Int64()), rng.IntN(64)
		if err := count(c.checkBoth(b, key, pos, align, rng.IntN(64))); err != nil {
			return err
		}
	}
	return nil
}
