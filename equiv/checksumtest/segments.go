package checksumtest

import (
	"encoding/binary"
	"math/rand/v2"
	"net/netip"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// segmentClass fills a UDP segment (header and data) of len(b) bytes sent
// from src to dst: random bytes, then a checksum field of the class's kind.
// A segment shorter than the header, or between addresses with no
// pseudo-header, stays random.
type segmentClass struct {
	name string
	fill func(rng *rand.Rand, b []byte, src, dst netip.Addr)
}

var segmentClasses = []segmentClass{
	// The checksum FinishUDP computes: passes.
	{"valid", func(rng *rand.Rand, b []byte, src, dst netip.Addr) {
		fillSegment(rng, b, src, dst, false)
	}},
	// The source port chosen so that the computed checksum is 0x0000,
	// which is sent as 0xFFFF (RFC 768, RFC 8200 §8.1): passes.
	{"valid-ffff", func(rng *rand.Rand, b []byte, src, dst netip.Addr) {
		fillSegment(rng, b, src, dst, true)
	}},
	// The same segment with a field of 0x0000: it sums to 0xFFFF like a
	// valid one, passes over IPv4 (no checksum) but not over IPv6.
	{"zero-ffff", func(rng *rand.Rand, b []byte, src, dst netip.Addr) {
		if fillSegment(rng, b, src, dst, true) {
			b[6], b[7] = 0, 0
		}
	}},
	// A field of 0x0000 on random data.
	{"zero", func(rng *rand.Rand, b []byte, _, _ netip.Addr) {
		fillRandom(0)(rng, b, 0)
		if len(b) >= 8 {
			b[6], b[7] = 0, 0
		}
	}},
	// A valid segment with one bit flipped outside the field: fails.
	{"corrupt", func(rng *rand.Rand, b []byte, src, dst netip.Addr) {
		if fillSegment(rng, b, src, dst, false) {
			i := rng.IntN(len(b) - 2)
			if i >= 6 {
				i += 2
			}
			b[i] ^= 1 << rng.IntN(8)
		}
	}},
}

// fillSegment fills b with random bytes and, if b holds a UDP header and
// src and dst have a pseudo-header, sets the checksum field to the one
// FinishUDP computes (with toFFFF, after choosing the source port so that
// it computes 0x0000 and is sent as 0xFFFF) and reports true.
func fillSegment(rng *rand.Rand, b []byte, src, dst netip.Addr, toFFFF bool) bool {
	fillRandom(0)(rng, b, 0)
	if len(b) < 8 {
		return false
	}
	ph, ok := ref.PseudoHeaderSum(src, dst, 17, uint32(len(b)))
	if !ok {
		return false
	}
	b[6], b[7] = 0, 0
	if toFFFF {
		b[0], b[1] = 0, 0
		s := ref.Sum(b, ph) // nonzero: the protocol, 17, is in it
		binary.BigEndian.PutUint16(b, 0xffff-s)
	}
	binary.BigEndian.PutUint16(b[6:], ref.FinishUDP(ref.Sum(b, ph)))
	return true
}

// verifyLengths are VerifyUDP's segment lengths: every length to 72 (the
// header's 8 bytes crossed, and the 20-, 32- and 64-byte thresholds of the
// optimized Sum), a 1500-byte Ethernet frame's, the IPv4 limit and an IPv6
// jumbogram's, odd and even.
func verifyLengths() []int {
	var ns []int
	for n := 0; n <= 72; n++ {
		ns = append(ns, n)
	}
	return append(ns, 1472, 0xffff, 0x10000, 0x10001)
}

// verifies checks VerifyUDP on every pair of families (random addresses) ×
// every length in verifyLengths × every segment class × alignments 0 and
// 1.
func verifies(c *checker, r *equiv.Run) *equiv.Counterexample {
	if c.impl.VerifyUDP == nil {
		return nil
	}
	ns := verifyLengths()
	buf := make([]byte, ns[len(ns)-1])
	for fs := range numFamilies {
		for fd := range numFamilies {
			src, dst := addrOf(fs, randomBytes16(r.Rand())), addrOf(fd, randomBytes16(r.Rand()))
			for _, n := range ns {
				for _, cl := range segmentClasses {
					cl.fill(r.Rand(), buf[:n], src, dst)
					for align := range 2 {
						if ce := c.verifyUDP(aligned(align), src, dst, buf[:n]); ce != nil {
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

// putValues are Put's values beside the exhaustive 2-byte sweep.
var putValues = []uint16{0x0000, 0xffff, 0x220d, 0x8000, 0x00ff}

// puts checks Put on every value into 2 bytes (at alignments 0..63 in
// turn), then into every length 0..8 × every alignment 0..63 × putValues,
// over random contents.
func puts(c *checker, r *equiv.Run) *equiv.Counterexample {
	if c.impl.Put == nil {
		return nil
	}
	two := make([]byte, 2)
	for v := range 1 << 16 {
		fillRandom(0)(r.Rand(), two, 0)
		if ce := c.put(aligned(v%64), two, uint16(v)); ce != nil {
			return ce
		}
	}
	b := make([]byte, 8)
	for n := 0; n <= 8; n++ {
		for align := range 64 {
			for _, v := range putValues {
				fillRandom(0)(r.Rand(), b[:n], 0)
				if ce := c.put(aligned(align), b[:n], v); ce != nil {
					return ce
				}
			}
		}
	}
	return nil
}
