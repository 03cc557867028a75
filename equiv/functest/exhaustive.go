package functest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
)

// productChunk is how many inputs of the product one unit of Run.Mine
// holds, so that the method's lanes and shards divide it.
const productChunk = 1 << 12

// gridLen is the longest length of the grid part: past four 64-octet
// blocks, so that a kernel with a stride of up to 64 octets runs its bulk
// loop zero to four times, with every tail, at every alignment.
const gridLen = 256

// runExhaustive enumerates, as units of Run.Mine: the product of every
// parameter's small domain (param.small: every value of a bool, of an
// integer of 16 bits or fewer, of octets up to two octets, three at
// Standard; boundary values for the rest), whole if it holds at most
// exhaustiveMax inputs at the level, else every parameter's small domain
// crossed with the others' boundary values (a class says which); then,
// for each []byte or string parameter, the grid of every length to 256
// (or MaxLen) × every alignment 0..63 × four content classes, the other
// parameters cycling through their boundaries.
func runExhaustive(c *checker, r *equiv.Run) error {
	unit := 0
	doms, total := c.s.domains(r.Level())
	if total <= exhaustiveMax(r.Level()) {
		whole := fmt.Sprintf("product whole: %d inputs", total)
		r.Expect(whole)
		for start := 0; start < total; start += productChunk {
			if r.Mine(unit) {
				end := min(start+productChunk, total)
				if ce := c.productPart(doms, start, end); ce != nil {
					return r.Fail(ce)
				}
				r.ReachN(whole, int64(end-start))
			}
			unit++
		}
	} else {
		r.Expect("product crossed with boundaries")
		base := c.s.baseArgs()
		for i := range c.s.params {
			if r.Mine(unit) {
				if ce := c.crossPart(r, doms, base, i); ce != nil {
					return r.Fail(ce)
				}
			}
			unit++
		}
	}
	for i, p := range c.s.params {
		if p.kind != kBytes && p.kind != kString {
			continue
		}
		for n := 0; n <= gridLen && (p.maxLen == 0 || n <= p.maxLen); n++ {
			if r.Mine(unit) && r.Thin(n) {
				if ce := c.gridLength(r, i, n); ce != nil {
					return r.Fail(ce)
				}
			}
			unit++
		}
	}
	return nil
}

// domains returns every parameter's small domain, materialized, and the
// size of their product (capped past exhaustiveMax).
func (s *spec) domains(l equiv.Level) ([][]reflect.Value, int) {
	doms := make([][]reflect.Value, len(s.params))
	total := 1
	for i, p := range s.params {
		seq, n := p.small(l)
		if n > exhaustiveMax(l) {
			seq = slices.Values(p.boundaries())
		}
		doms[i] = slices.Collect(seq)
		if total <= exhaustiveMax(l) {
			total *= len(doms[i])
		}
	}
	return doms, total
}

// productPart checks inputs start to end of the product of doms, in
// mixed radix (the first parameter fastest).
func (c *checker) productPart(doms [][]reflect.Value, start, end int) *equiv.Counterexample {
	args := make([]reflect.Value, len(doms))
	for x := start; x < end; x++ {
		rest := x
		for i, d := range doms {
			args[i] = d[rest%len(d)]
			rest /= len(d)
		}
		if ce := c.compare(args, x&63); ce != nil {
			return ce
		}
	}
	return nil
}

// crossPart checks parameter i's whole small domain, the others cycling
// through their boundary values.
func (c *checker) crossPart(r *equiv.Run, doms [][]reflect.Value, base []reflect.Value, i int) *equiv.Counterexample {
	r.Reach("product crossed with boundaries")
	for k, v := range doms[i] {
		args := c.s.cycled(base, i, k)
		args[i] = v
		if ce := c.compare(args, k&63); ce != nil {
			return ce
		}
	}
	return nil
}

// gridLength checks parameter i at length n, at every alignment, in every
// content class, the others cycling through their boundary values.
func (c *checker) gridLength(r *equiv.Run, i, n int) *equiv.Counterexample {
	p := c.s.params[i]
	base := c.s.baseArgs()
	rng := rand.New(rand.NewPCG(r.Config().Seed(), uint64(i)<<32|uint64(n)))
	b := make([]byte, n)
	for align := range 64 {
		for cl := range contentClasses {
			fillClass(rng, b, cl)
			args := c.s.cycled(base, i, align*len(contentClasses)+cl)
			args[i] = p.fromBytes(b)
			if ce := c.compare(args, align); ce != nil {
				ce.Args += " class=" + contentClasses[cl]
				return ce
			}
		}
	}
	r.Reach("grid")
	return nil
}
