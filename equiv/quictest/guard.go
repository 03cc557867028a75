package quictest

import (
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
		return nil
	}, maxLen)
}

// guardAt checks in.data[:n] at the end of g, then at its start, with
// every function that reads a datagram.
func (c *checker) guardAt(r *equiv.Run, g *equiv.Guarded, in named, n int) error {
	sides := []struct {
		name  string
		place func([]byte) []byte
	}{
		{"ending at", func(d []byte) []byte { b := g.Tail(len(d)); copy(b, d); return b }},
		{"starting at", func(d []byte) []byte { b := g.Head(len(d)); copy(b, d); return b }},
	}
	d := in.data[:n:n]
	for _, side := range sides {
		ce, k := c.reads(d, in.sdl, side.place)
		if ce != nil {
			return r.Fail(note(ce, "%s a guard page from=%q trunc=%d", side.name, in.name, n))
		}
		r.Count(k)
	}
	return nil
}
