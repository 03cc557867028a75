package websockettest

import (
	"fmt"

	"github.com/equivcheck/equivcheck/equiv"
)

// edge is a place for a buffer of n bytes flush against an unmapped page.
type edge struct {
	name string // "ending at a guard page"
	at   func(n int) []byte
}

// guard masks every length 0..GridLen flush against an unmapped page,
// after the payload and before it; and MaskCopy with each of src and dst
// there (the other buffer against a guard page too); then reads and
// writes through the streamers with p there (guardStreams, in a third
// region, since a stream's last Read asks for one octet more than it
// holds). An over-read or over-write faults, and the fault is reported
// as the call's panic.
func (c *checker) guard(r *equiv.Run) error {
	return r.Guarded(func(gs []*equiv.Guarded) error {
		count := tally(r)
		c.expectLens(r, "len=321..1023 (AVX-512 loop)")
		g, g2, g3 := gs[0], gs[1], gs[2]
		edges := []edge{{"ending at a guard page", g.Tail}, {"starting at a guard page", g.Head}}
		otherDst := edge{"starting at a guard page", g2.Head}
		otherSrc := edge{"ending at a guard page", g2.Tail}
		for n := 0; n <= GridLen; n++ {
			payload := make([]byte, n)
			markers(payload, n)
			for _, e := range edges {
				for pos := range 4 {
					key := keys[pos%2]
					if err := count(c.guardMask(payload, key, pos, e)); err != nil {
						return err
					}
					if c.impl.MaskCopy == nil {
						continue
					}
					if err := count(c.guardMaskCopy(payload, key, pos, otherDst, e)); err != nil {
						return err
					}
					if err := count(c.guardMaskCopy(payload, key, pos, e, otherSrc)); err != nil {
						return err
					}
				}
			}
		}
		r.ReachN("buffers ending and starting at a guard page", r.Checked())
		return c.guardStreams(count, []edge{{"ending at a guard page", g3.Tail}, {"starting at a guard page", g3.Head}})
	}, GridLen, GridLen, GridLen+4)
}

// guardMask compares Mask on the payload placed at e.
func (c *checker) guardMask(payload []byte, key [4]byte, pos int, e edge) (*equiv.Counterexample, bool) {
	return shrunkOrNot(payload, func(d []byte) (*equiv.Counterexample, bool) {
		k := c.h.Call(cMask)
		defer k.End()
		k.Mark(equiv.MechGuard)
		b := e.at(len(d))
		copy(b, d)
		if equiv.Excluded(c.cfg, Input{Func: "Mask", Payload: b, Key: key, Pos: pos}) {
			return nil, false
		}
		c.size(len(d))
		want := refMask(d, key, pos)
		got := outcome{out: b}
		got.p = k.Do(func() { got.next = c.impl.Mask(b, key, pos) })
		if c.agree(got, want) {
			return nil, true
		}
		return site{fn: "Mask", payload: d, key: key, pos: pos, args: "b " + e.name}.failure(got, want), true
	})
}

// guardMaskCopy compares MaskCopy from the payload placed at src into dst.
func (c *checker) guardMaskCopy(payload []byte, key [4]byte, pos int, dst, src edge) (*equiv.Counterexample, bool) {
	return shrunkOrNot(payload, func(d []byte) (*equiv.Counterexample, bool) {
		k := c.h.Call(cMaskCopy)
		defer k.End()
		k.Mark(equiv.MechGuard)
		to, from := dst.at(len(d)), src.at(len(d))
		copy(from, d)
		if equiv.Excluded(c.cfg, Input{Func: "MaskCopy", Payload: from, Dst: to, Key: key, Pos: pos}) {
			return nil, false
		}
		c.size(len(d))
		want := refMaskCopy(d, key, pos, false)
		got := outcome{out: to[:min(len(to), len(from))]}
		got.p = k.Do(func() { got.next = c.impl.MaskCopy(to, from, key, pos) })
		if c.agree(got, want) {
			return nil, true
		}
		args := fmt.Sprintf("dst %s, src %s", dst.name, src.name)
		return site{fn: "MaskCopy", payload: d, key: key, pos: pos, args: args}.failure(got, want), true
	})
}

// shrunkOrNot runs once on payload and minimizes a failure, as minimized
// does, but never checks again at the same address: a guard page's
// buffer is the suite's own, placed at the page, not by the harness.
func shrunkOrNot(payload []byte, once func([]byte) (*equiv.Counterexample, bool)) (*equiv.Counterexample, bool) {
	ce, compared := once(payload)
	if ce == nil {
		return nil, compared
	}
	return shrunk(payload, once, ce), true
}
