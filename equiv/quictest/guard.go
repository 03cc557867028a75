package quictest

import (
	"bytes"
	"fmt"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/internal/quicvectors"
)

// guardInputs are the guard method's datagrams: every vector, the
// coalescing set, and a canonical packet per first-byte class, version and
// CID length.
func guardInputs() []named {
	var inputs []named
	for _, v := range quicvectors.Packets {
		inputs = append(inputs, named{"vector " + v.Name, v.Bytes(), v.ShortDCIDLen})
	}
	for _, v := range quicvectors.BadPackets {
		inputs = append(inputs, named{"bad packet " + v.Name, v.Bytes(), v.ShortDCIDLen})
	}
	for _, v := range quicvectors.Datagrams {
		if v.Pad > 0 || v.Junk > 0 {
			continue // guardPadding places padding against the page
		}
		inputs = append(inputs, named{"datagram " + v.Name, v.Bytes(), v.ShortDCIDLen})
	}
	for _, s := range coalesceSet() {
		inputs = append(inputs, named{s.name, s.data, 8})
	}
	for first := 0; first < 0x100; first += 0x10 {
		for _, version := range versions {
			for _, cid := range []int{0, 20, 21} {
				inputs = append(inputs, named{fmt.Sprintf("first=%#02x version=%#08x cids=%d", first|5, version, cid),
					canonical(byte(first|5), version, cid, cid).Append(nil), cid % 21})
			}
		}
	}
	return inputs
}

// guard parses every guard input, at every truncation, placed flush
// against an unmapped page after it and before it: a parser that reads one
// byte outside its input faults, and the fault is reported (and
// minimized, in place against the page) as a counterexample.
func (c *checker) guard(r *equiv.Run) error {
	inputs := guardInputs()
	maxLen := 0
	for _, in := range inputs {
		maxLen = max(maxLen, len(in.data))
	}
	return r.Guarded(func(gs []*equiv.Guarded) error {
		g := gs[0]
		for _, in := range inputs {
			for n := 0; n <= len(in.data); n++ {
				if err := c.guardAt(r, g, in, n); err != nil {
					return err
				}
			}
		}
		if err := c.guardPadding(r, g); err != nil {
			return err
		}
		if c.impl.readsDatagrams() {
			r.Expect("ending at a guard page", "starting at a guard page")
		}
		return c.guardWithLen(r, g)
	}, max(maxLen, 1200+maxPad))
}

// guardPadding places each of junkBases followed by every length
// 0..maxPad of zero and of random padding (the every-length padding
// domain) flush against an unmapped page, after it and before it, with
// the functions whose result depends on the padding: a test for zero
// bytes, or a parse of the junk, that reads one byte past the datagram
// faults. (The bases themselves are guarded at every truncation as
// vectors.)
func (c *checker) guardPadding(r *equiv.Run, g *equiv.Guarded) error {
	rng := r.Rand()
	for _, base := range junkBases() {
		for n := 0; n <= maxPad; n++ {
			for _, kind := range []string{"zeros", "random"} {
				pad := make([]byte, n)
				if kind == "random" {
					fillRandom(rng, pad)
				}
				d := append(bytes.Clone(base.data), pad...)
				for _, side := range guardSides(g) {
					ce, k := c.readsWith(packetReaders, d, base.sdl, side.site)
					if ce != nil {
						return r.Fail(note(ce, "%s a guard page from=%q+%d %s", side.name, base.name, n, kind))
					}
					r.Count(k)
				}
			}
		}
	}
	return nil
}

// guardSide places a datagram against one side of a guard page.
type guardSide struct {
	name string
	site site
}

// guardSides places data ending at g's unmapped page after it, and
// starting at its page before it.
func guardSides(g *equiv.Guarded) []guardSide {
	return []guardSide{{"ending at", site{g: g, tail: true}}, {"starting at", site{g: g}}}
}

// guardWithLen fills a reserved field in place, as AppendVarintWithLen is
// used to: a prefix of 0 or 3 bytes whose buffer has room for exactly the
// n bytes appended, ending at an unmapped page and starting just after
// one, for each width and the smallest and largest value it holds. A
// store past the n bytes (one 8-byte store for any width, say), or before
// the buffer, faults.
func (c *checker) guardWithLen(r *equiv.Run, g *equiv.Guarded) error {
	if c.impl.AppendVarintWithLen == nil {
		return nil
	}
	for _, w := range varintWidths {
		for _, v := range []uint64{0, 1<<(8*w-2) - 1} {
			for _, prefix := range [][]byte{nil, {0xee, 0xee, 0xee}} {
				in := Input{Func: funcAppendVarintWithLen, Data: prefix, Value: v, Len: w}
				if c.skip(in) {
					continue
				}
				for _, side := range []struct {
					name string
					site site
				}{{"ends", site{g: g, tail: true}}, {"starts", site{g: g}}} {
					if ce := c.withLenAt(prefix, v, w, true, side.site); ce != nil {
						return r.Fail(note(ce, "filling a field whose buffer %s at a guard page", side.name))
					}
					r.Count(1)
				}
			}
		}
	}
	return nil
}

// guardAt checks in.data[:n] at the end of g, then at its start, with
// every function that reads a datagram.
func (c *checker) guardAt(r *equiv.Run, g *equiv.Guarded, in named, n int) error {
	d := in.data[:n:n]
	for _, side := range guardSides(g) {
		ce, k := c.reads(d, in.sdl, side.site)
		if ce != nil {
			return r.Fail(note(ce, "%s a guard page from=%q trunc=%d", side.name, in.name, n))
		}
		r.Count(k)
		if n == len(in.data) {
			r.Reach(side.name + " a guard page")
		}
	}
	return nil
}
