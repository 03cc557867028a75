package functest

import (
	"reflect"

	"github.com/equivcheck/equivcheck/equiv"
)

// runVectors checks the vectors the options gave (Vector), at alignments
// that move with them, then each parameter's boundary values in turn,
// the others at their first boundary value.
func runVectors(c *checker, r *equiv.Run) error {
	for i, v := range c.s.vectors {
		r.Reach("vector")
		if ce := c.compare(v, i*7&63); ce != nil {
			return r.Fail(ce)
		}
	}
	base := c.s.baseArgs()
	for i, p := range c.s.params {
		for j, b := range p.boundaries() {
			args := append([]reflect.Value(nil), base...)
			args[i] = b
			if ce := c.compare(args, j&63); ce != nil {
				return r.Fail(ce)
			}
		}
	}
	return nil
}

// baseArgs are the arguments a part that varies one parameter gives the
// others: each one's first boundary value (nil, zero, false, the zero
// Addr, an empty reader, a buffer).
func (s *spec) baseArgs() []reflect.Value {
	out := make([]reflect.Value, len(s.params))
	for i, p := range s.params {
		out[i] = p.boundaries()[0]
	}
	return out
}

// cycled returns base with every parameter but i set to its k-th boundary
// value (cycling), so that a part that varies parameter i over many
// inputs meets every boundary of the others too.
func (s *spec) cycled(base []reflect.Value, i, k int) []reflect.Value {
	args := append([]reflect.Value(nil), base...)
	for j, p := range s.params {
		if j != i {
			b := p.boundaries()
			args[j] = b[k%len(b)]
		}
	}
	return args
}
