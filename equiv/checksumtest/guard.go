package checksumtest

import "github.com/equivcheck/equivcheck/equiv"

// runGuard checks Sum, and a Digest fed the input in one write, on every
// length 0..GridLen of bytes ≥ 0x80 flush against an unmapped page: ending
// at the page after it (an over-read faults) and starting just after the
// page before it (an under-read faults). A fault is a panic, and so a
// counterexample, minimized at the same edge. It checks the helpers that
// take a buffer the same way: Put on every length 0..3 (a write past a
// short b faults), and VerifyUDP on every length 0..GridLen of a valid
// segment (so that it reads the whole of it), IPv4 at even lengths and IPv6
// at odd ones.
func runGuard(c *checker, r *equiv.Run) error {
	r.Expect(guardClasses[:]...)
	return r.Guarded(func(gs []*equiv.Guarded) error {
		data := make([]byte, GridLen)
		for n := 0; n <= GridLen; n++ {
			for i, tail := range []bool{true, false} {
				r.Reach(guardClasses[i])
				s := site{g: gs[0], tail: tail}
				b := data[:n]
				fillRandom(0x80)(r.Rand(), b, 0)
				if ce := c.sum(s, b, uint16(r.Rand().Uint32())); ce != nil {
					return r.Fail(ce)
				}
				if ce := c.digest(s, b, nil); ce != nil {
					return r.Fail(ce)
				}
				if ce := guardHelpers(c, r, s, b); ce != nil {
					return r.Fail(ce)
				}
			}
		}
		return nil
	}, GridLen)
}

// guardClasses are the two edges the guard method places inputs at: its
// end against the unmapped page after it (the start then runs through
// every alignment as the length does), and its start just after the
// unmapped page before it (the start page-aligned, the end at every
// alignment).
var guardClasses = [2]string{"guard: ending at an unmapped page", "guard: starting after an unmapped page"}

// guardHelpers checks Put (if len(b) <= 3) and VerifyUDP on b, refilled, at
// s.
func guardHelpers(c *checker, r *equiv.Run, s site, b []byte) *equiv.Counterexample {
	if len(b) <= 3 && c.impl.Put != nil {
		if ce := c.put(s, b, uint16(r.Rand().Uint32())); ce != nil {
			return ce
		}
	}
	if c.impl.VerifyUDP == nil {
		return nil
	}
	src, dst := v4src, v4dst
	if len(b)%2 == 1 {
		src, dst = v6src, v6dst
	}
	fillSegment(r.Rand(), b, src, dst, false)
	return c.verifyUDP(s, src, dst, b)
}
