package checksumtest

import (
	"math"
	"math/rand/v2"
	"net/netip"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// helperParts are the bounded domains of the helpers, enumerated by the
// exhaustive method after Sum's and Update's (docs/equivalence.md argues
// why each reaches every class of the optimized code).
var helperParts = []func(*checker, *equiv.Run) *equiv.Counterexample{
	combines, finishes, udpUpdates, pseudoHeaders, verifies, puts,
}

// nearEnds returns the n values within n/2 of 0x0000 and of 0xFFFF: every
// carry and end-around-carry case of adding such values.
func nearEnds(n int) []uint16 {
	near := make([]uint16, n)
	for i := range n / 2 {
		near[i], near[n/2+i] = uint16(i), uint16(0x10000-n/2+i)
	}
	return near
}

// combineOffsets are Combine's offsets: both parities, small, negative
// and at the ends of int.
var combineOffsets = []int{0, 1, 2, 3, -1, -2, math.MaxInt, math.MinInt}

// combines checks Combine on every (sum, next) within 128 of 0x0000 or
// 0xFFFF × every offset in combineOffsets, then every next × every value
// in initials × offsets 0 and 1.
func combines(c *checker, _ *equiv.Run) *equiv.Counterexample {
	if c.impl.Combine == nil {
		return nil
	}
	near := nearEnds(256)
	for _, sum := range near {
		for _, next := range near {
			for _, off := range combineOffsets {
				if ce := c.combine(sum, next, off); ce != nil {
					return ce
				}
			}
		}
	}
	for next := range 1 << 16 {
		for _, sum := range initials {
			for off := range 2 {
				if ce := c.combine(sum, uint16(next), off); ce != nil {
					return ce
				}
			}
		}
	}
	return nil
}

// finishes checks FinishUDP on every sum.
func finishes(c *checker, _ *equiv.Run) *equiv.Counterexample {
	if c.impl.FinishUDP == nil {
		return nil
	}
	for s := range 1 << 16 {
		if ce := c.finishUDP(uint16(s)); ce != nil {
			return ce
		}
	}
	return nil
}

// udpUpdates checks UpdateUDP and UpdateUDP6 on every triple with each
// value within 32 of 0x0000 or 0xFFFF (a checksum of 0x0000 among them),
// on 4096 random (checksum, old) pairs with each new word that makes RFC
// 1624 Eqn. 3 give 0x0000, and on 2^16 random triples.
func udpUpdates(c *checker, r *equiv.Run) *equiv.Counterexample {
	if c.impl.UpdateUDP == nil && c.impl.UpdateUDP6 == nil {
		return nil
	}
	near := nearEnds(64)
	for _, hc := range near {
		for _, m := range near {
			for _, m2 := range near {
				if ce := c.updateUDP(hc, m, m2); ce != nil {
					return ce
				}
			}
		}
	}
	for range 4096 {
		v := r.Rand().Uint32()
		hc, m := uint16(v), uint16(v>>16)
		for _, m2 := range toZero(hc, m) {
			if ce := c.updateUDP(hc, m, m2); ce != nil {
				return ce
			}
		}
	}
	for range 1 << 16 {
		v := r.Rand().Uint64()
		if ce := c.updateUDP(uint16(v), uint16(v>>16), uint16(v>>32)); ce != nil {
			return ce
		}
	}
	return nil
}

// toZero returns the new words m' for which Update(hc, m, m') is 0x0000:
// those that make t + m' fold to 0xFFFF, where t is ~hc + ~m folded.
func toZero(hc, m uint16) []uint16 {
	switch t := onesAdd(^hc, ^m); t {
	case 0x0000: // only ~hc = ~m = 0: m' must be 0xFFFF itself
		return []uint16{0xffff}
	case 0xffff: // 0xFFFF + 0 and 0xFFFF + 0xFFFF both fold to 0xFFFF
		return []uint16{0x0000, 0xffff}
	default:
		return []uint16{0xffff - t}
	}
}

// pseudoLengths are PseudoHeaderSum's lengths: 0, small, each side of
// 2^16 (the IPv4 limit, and the bits a 16-bit length drops), and each end
// of 2^31 and 2^32.
var pseudoLengths = []uint32{0, 1, 8, 0xff, 0x100, 0xfffe, 0xffff, 0x10000, 0x10001, 0x12345,
	0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff}

// addrClass fills a pair of addresses of the given families for a
// pseudo-header of proto and length.
type addrClass struct {
	name string
	fill func(rng *rand.Rand, fs, fd family, proto uint8, length uint32) (src, dst netip.Addr)
}

var addrClasses = []addrClass{
	// All-zero bytes: with protocol 0 and length 0 the only pseudo-header
	// that sums to 0x0000 (IPv4, mapped or not: as IPv6, ::ffff:0.0.0.0
	// would sum to 0xFFFF).
	{"zero", func(_ *rand.Rand, fs, fd family, _ uint8, _ uint32) (netip.Addr, netip.Addr) {
		return addrOf(fs, [16]byte{}), addrOf(fd, [16]byte{})
	}},
	// All-0xFF bytes: the longest carry chains.
	{"ones", func(_ *rand.Rand, fs, fd family, _ uint8, _ uint32) (netip.Addr, netip.Addr) {
		ones := [16]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
		return addrOf(fs, ones), addrOf(fd, ones)
	}},
	{"random", func(rng *rand.Rand, fs, fd family, _ uint8, _ uint32) (netip.Addr, netip.Addr) {
		return addrOf(fs, randomBytes16(rng)), addrOf(fd, randomBytes16(rng))
	}},
	// Random, with the destination's last word chosen so that the
	// pseudo-header sums to exactly 0xFFFF ("negative zero").
	{"to-ffff", toFFFF},
}

func randomBytes16(rng *rand.Rand) (b [16]byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// toFFFF is the class "to-ffff": random addresses, then the destination's
// last 16-bit word set so that the reference's sum is 0xFFFF (where the
// families have a pseudo-header).
func toFFFF(rng *rand.Rand, fs, fd family, proto uint8, length uint32) (netip.Addr, netip.Addr) {
	sb, db := randomBytes16(rng), randomBytes16(rng)
	last := 14 // the last word of an IPv6 (or IPv4-mapped) address
	if fd == famIPv4 {
		last = 2
	}
	db[last], db[last+1] = 0, 0
	src, dst := addrOf(fs, sb), addrOf(fd, db)
	s, ok := ref.PseudoHeaderSum(src, dst, proto, length)
	if !ok {
		return src, dst
	}
	need := 0xffff - s // s + need = 0xFFFF, with no carry
	db[last], db[last+1] = byte(need>>8), byte(need)
	return src, addrOf(fd, db)
}

// pseudoHeaders checks PseudoHeaderSum on every pair of families × every
// address class × every protocol × every length in pseudoLengths.
func pseudoHeaders(c *checker, r *equiv.Run) *equiv.Counterexample {
	if c.impl.PseudoHeaderSum == nil {
		return nil
	}
	for fs := range numFamilies {
		for fd := range numFamilies {
			for _, cl := range addrClasses {
				for proto := range 256 {
					for _, length := range pseudoLengths {
						src, dst := cl.fill(r.Rand(), fs, fd, uint8(proto), length)
						if ce := c.pseudo(src, dst, uint8(proto), length); ce != nil {
							ce.Args += " class=" + cl.name
							return ce
						}
					}
				}
			}
		}
	}
	return nil
}
