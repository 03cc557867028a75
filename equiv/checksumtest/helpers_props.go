package checksumtest

import (
	"math"
	"math/rand/v2"
	"net/netip"

	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// helperProperty is a rapid property of the helpers, compared with the
// reference: the helper functions it needs (any one of them suffices), and
// a case, which calls the checker's comparisons on its draws.
type helperProperty struct {
	name  string
	needs []string
	check func(c *checker, t *rapid.T, byteGen *rapid.Generator[byte]) *equiv.Counterexample
}

var helperProperties = []helperProperty{
	{"Combine", []string{"Combine"}, propCombine},
	{"PseudoHeaderSum", []string{"PseudoHeaderSum"}, propPseudo},
	{"UDP update and finish", []string{"UpdateUDP", "UpdateUDP6", "FinishUDP"}, propUDPWords},
	{"VerifyUDP", []string{"VerifyUDP"}, propVerify},
	{"Put", []string{"Put"}, propPut},
}

// runHelperProperties runs each helper property the implementation has the
// functions for, checks cases each. A case in which every comparison was
// out of scope is not counted.
func runHelperProperties(c *checker, r *equiv.Run, checks int, byteGen *rapid.Generator[byte]) error {
	for _, p := range helperProperties {
		if !c.hasAny(p.needs) {
			continue
		}
		if err := r.Property(p.name, checks, func(t *rapid.T) error {
			compared := false
			cc := newChecker(c.impl, c.cfg, func(int) { compared = true })
			defer cc.release()
			if ce := p.check(cc, t, byteGen); ce != nil {
				return ce
			}
			if !compared {
				return equiv.ErrNotCompared
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// hasAny reports whether the implementation provides any of fns.
func (c *checker) hasAny(fns []string) bool {
	for _, f := range fns {
		if c.has(f) {
			return true
		}
	}
	return false
}

// word16 draws a 16-bit value biased towards the carry boundaries.
var word16 = rapid.OneOf(rapid.Uint16(), rapid.SampledFrom([]uint16{0x0000, 0x0001, 0x00ff, 0x0100, 0x7fff, 0x8000, 0xfffe, 0xffff}))

// propCombine: Combine of the sums of two drawn pieces at their own offset
// (plus any even amount), and of drawn raw values.
func propCombine(c *checker, t *rapid.T, byteGen *rapid.Generator[byte]) *equiv.Counterexample {
	a := rapid.SliceOfN(byteGen, 0, 300).Draw(t, "a")
	b := rapid.SliceOfN(byteGen, 0, 300).Draw(t, "b")
	initial := word16.Draw(t, "initial")
	shift := 2 * rapid.IntRange(math.MinInt/4, math.MaxInt/4).Draw(t, "shift")
	// The sums of real pieces, as a caller would pass them.
	if ce := c.combine(ref.Sum(a, initial), ref.Sum(b, 0), len(a)+shift); ce != nil {
		return ce
	}
	return c.combine(word16.Draw(t, "sum"), word16.Draw(t, "next"), rapid.Int().Draw(t, "offset"))
}

// drawAddr draws an address of any family, its bytes biased to 0x00 and
// 0xFF.
func drawAddr(t *rapid.T, label string, byteGen *rapid.Generator[byte]) netip.Addr {
	f := family(rapid.IntRange(0, int(numFamilies)-1).Draw(t, label+" family"))
	return addrOf(f, [16]byte(rapid.SliceOfN(byteGen, 16, 16).Draw(t, label)))
}

// drawLength draws a pseudo-header length, biased to pseudoLengths.
var drawLength = rapid.OneOf(rapid.Uint32(), rapid.SampledFrom(pseudoLengths), rapid.Uint32Range(0, 0x1ffff))

// propPseudo: PseudoHeaderSum on drawn addresses (half the time of one
// family), protocols and lengths.
func propPseudo(c *checker, t *rapid.T, byteGen *rapid.Generator[byte]) *equiv.Counterexample {
	src := drawAddr(t, "src", byteGen)
	dst := drawAddr(t, "dst", byteGen)
	if rapid.Bool().Draw(t, "same family") {
		f, _ := familyOf(src)
		dst = addrOf(f, [16]byte(rapid.SliceOfN(byteGen, 16, 16).Draw(t, "dst bytes")))
	}
	proto := rapid.OneOf(rapid.Uint8(), rapid.SampledFrom([]uint8{6, 17, 58, 0, 255})).Draw(t, "proto")
	return c.pseudo(src, dst, proto, drawLength.Draw(t, "length"))
}

// propUDPWords: UpdateUDP, UpdateUDP6 and FinishUDP on drawn values.
func propUDPWords(c *checker, t *rapid.T, _ *rapid.Generator[byte]) *equiv.Counterexample {
	hc, m, m2 := word16.Draw(t, "checksum"), word16.Draw(t, "old"), word16.Draw(t, "new")
	if rapid.Bool().Draw(t, "to zero") {
		zs := toZero(hc, m)
		m2 = zs[rapid.IntRange(0, len(zs)-1).Draw(t, "zero")]
	}
	if ce := c.updateUDP(hc, m, m2); ce != nil {
		return ce
	}
	return c.finishUDP(word16.Draw(t, "sum"))
}

// propVerify: VerifyUDP on a drawn segment of a drawn class between drawn
// addresses, half the time of one family.
func propVerify(c *checker, t *rapid.T, byteGen *rapid.Generator[byte]) *equiv.Counterexample {
	src := drawAddr(t, "src", byteGen)
	dst := src
	if rapid.Bool().Draw(t, "other dst") {
		dst = drawAddr(t, "dst", byteGen)
	}
	seg := make([]byte, rapid.IntRange(0, 600).Draw(t, "length"))
	cl := rapid.SampledFrom(segmentClasses).Draw(t, "class")
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "content seed"), 0))
	cl.fill(rng, seg, src, dst)
	return c.verifyUDP(aligned(rapid.IntRange(0, 63).Draw(t, "align")), src, dst, seg)
}

// propPut: Put of a drawn value into a drawn buffer.
func propPut(c *checker, t *rapid.T, byteGen *rapid.Generator[byte]) *equiv.Counterexample {
	b := rapid.SliceOfN(byteGen, 0, 6).Draw(t, "b")
	return c.put(aligned(rapid.IntRange(0, 63).Draw(t, "align")), b, word16.Draw(t, "c"))
}
