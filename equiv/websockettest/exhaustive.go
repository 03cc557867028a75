package websockettest

import (
	"math"

	"github.com/equivcheck/equivcheck/equiv"
)

// keys are the keys of the grid: RFC 6455 §5.7's key, whose four octets
// are distinct, so that every output octet shows which key octet was used;
// and a second key with distinct octets and every bit set somewhere.
var keys = [][4]byte{{0x37, 0xfa, 0x21, 0x3d}, {0x80, 0x01, 0xff, 0x5a}}

// positions are the pos values beyond 0..3: only pos&3 may matter.
var positions = []int{4, 5, 6, 7, math.MaxInt >> 1, math.MaxInt>>1 + 3, -1, -2, -3, -4,
	math.MaxInt, math.MaxInt - 1, math.MaxInt - 2, math.MinInt, math.MinInt + 1}

// exhaustive enumerates, one axis per part: the grid of lengths ×
// alignments × phases × keys, positions beyond 0..3, splits into calls,
// and random payloads beyond the grid; then, for the streamers, every
// split of short payloads over every underlying reader and writer, every
// fault at every offset, lengths past every piece size, and random
// streams. (The streamers' parts come last, so that the random source
// draws for the others as it did before they existed.)
func (c *checker) exhaustive(r *equiv.Run) error {
	// The random sweeps, the longest parts at Deep, divide their
	// iterations among the shards (Run.Iterations) and so run on every
	// shard; every other part runs whole on the shard Run.Mine gives it.
	parts := []struct {
		run   func(*equiv.Run) error
		split bool
	}{{c.grid, false}, {c.positions, false}, {c.allSplits, false}, {c.random, true},
		{c.streamSplits, false}, {c.streamFaults, false}, {c.streamLong, false}, {c.streamRandom, true}}
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

// positions checks pos beyond 0..3 (large, negative, near the int limits)
// at every length, at an alignment that varies with both.
func (c *checker) positions(r *equiv.Run) error {
	count := tally(r)
	data := make([]byte, GridLen)
	for n := 0; n <= GridLen; n++ {
		markers(data[:n], 3*n)
		for _, pos := range positions {
			align := (n + pos&63) & 63
			if err := count(c.checkBoth(data[:n], keys[1], pos, align, 63-align)); err != nil {
				return err
			}
		}
	}
	return nil
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
