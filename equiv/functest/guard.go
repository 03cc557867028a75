package functest

import (
	"math/rand/v2"

	"github.com/equivcheck/equivcheck/equiv"
)

// guardLen is the longest length the guard method places at a page.
const guardLen = 512

// runGuard checks each []byte and string parameter at every length to
// 512 (or MaxLen), of random octets, at the two alignments where the
// harness lays it flush against a page: its start just after one
// (alignment 0) and its end just before one (the alignment of -length
// mod 64). A slice the function only reads meets an unmapped page there,
// so that a read one octet out faults; a slice it writes meets read-only
// octets or an unmapped page (equiv.Edge). The other parameters cycle
// through their boundary values.
func runGuard(c *checker, r *equiv.Run) error {
	if why := equiv.EdgeSkip(); why != "" {
		return r.Errorf("guard pages: %s", why)
	}
	base := c.s.baseArgs()
	rng := rand.New(rand.NewPCG(r.Config().Seed(), 0x9a4d))
	for i, p := range c.s.params {
		if p.kind != kBytes && p.kind != kString {
			continue
		}
		for n := 0; n <= guardLen && (p.maxLen == 0 || n <= p.maxLen); n++ {
			b := make([]byte, n)
			fillClass(rng, b, classRandom)
			for e, align := range []int{0, -n & 63} {
				args := c.s.cycled(base, i, 2*n+e)
				args[i] = p.fromBytes(b)
				if ce := c.compare(args, align); ce != nil {
					return r.Fail(ce)
				}
			}
		}
		r.Reach("guard: " + p.name)
	}
	return nil
}
