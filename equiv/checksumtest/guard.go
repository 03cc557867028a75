package checksumtest

import "github.com/equivcheck/equivcheck/equiv"

// runGuard checks Sum, and a Digest fed the input in one write, on every
// length 0..GridLen of bytes ≥ 0x80 flush against an unmapped page: ending
// at the page after it (an over-read faults) and starting just after the
// page before it (an under-read faults). A fault is a panic, and so a
// counterexample, minimized at the same edge.
func runGuard(c *checker, r *equiv.Run) error {
	return r.Guarded(func(gs []*equiv.Guarded) error {
		data := make([]byte, GridLen)
		for n := 0; n <= GridLen; n++ {
			for _, tail := range []bool{true, false} {
				s := site{g: gs[0], tail: tail}
				b := data[:n]
				fillRandom(0x80)(r.Rand(), b, 0)
				if ce := c.sum(s, b, uint16(r.Rand().Uint32())); ce != nil {
					return r.Fail(ce)
				}
				if ce := c.digest(s, b, nil); ce != nil {
					return r.Fail(ce)
				}
			}
		}
		return nil
	}, GridLen)
}
