package functest

import (
	"fmt"
	"math/rand/v2"
	"reflect"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/leanovate/gopter"
	"pgregory.net/rapid"
)

// generator draws one argument of a parameter inside a rapid property.
type generator func(t *rapid.T) reflect.Value

// Rapid replaces parameter i's draws in the properties method with g's
// (the other methods keep its domain, or Values').
func Rapid[T any](i int, g *rapid.Generator[T]) Option {
	return func(s *spec) error {
		p, err := s.param(i)
		if err != nil {
			return err
		}
		if reflect.TypeFor[T]() != p.t {
			return fmt.Errorf("Rapid(%d): a generator of %s for a parameter of type %s", i, reflect.TypeFor[T](), p.t)
		}
		p.gen = func(t *rapid.T) reflect.Value { return reflect.ValueOf(g.Draw(t, p.name)) }
		return nil
	}
}

// Gopter replaces parameter i's draws in the properties method with g's:
// each case seeds gopter's parameters from rapid, so that the run's seed
// reproduces it.
func Gopter(i int, g gopter.Gen) Option {
	return func(s *spec) error {
		p, err := s.param(i)
		if err != nil {
			return err
		}
		p.gen = func(t *rapid.T) reflect.Value {
			params := gopter.DefaultGenParameters()
			params.Rng.Seed(int64(rapid.Int64().Draw(t, p.name+" seed")))
			v, ok := g(params).Retrieve()
			if !ok || reflect.TypeOf(v) != p.t {
				return p.boundaries()[0]
			}
			return reflect.ValueOf(v)
		}
		return nil
	}
}

// draw returns p's rapid draw: its generator's, or its default, a value
// drawn from p.draw with a seed rapid draws (so that the run's seed
// reproduces it).
func (p *param) rapidDraw(t *rapid.T) reflect.Value {
	if p.gen != nil {
		return p.gen(t)
	}
	seed := rapid.Uint64().Draw(t, p.name)
	return p.draw(rand.New(rand.NewPCG(seed, 0)))
}

// runProperties checks the two functions agree on cases drawn by rapid:
// 300 at Quick, 3000 at Standard, 30000 at Deep, each argument drawn from
// its generator (Rapid, Gopter) or, by default, from its domain with a
// bias to its boundary values; the implementation's buffers at an
// alignment drawn too.
func runProperties(c *checker, r *equiv.Run) error {
	n := equiv.Pick(r, 300, 3000, 30000)
	return r.Property(c.s.name+" agrees", n, func(t *rapid.T) error {
		args := make([]reflect.Value, len(c.s.params))
		for i, p := range c.s.params {
			args[i] = p.rapidDraw(t)
		}
		align := rapid.IntRange(0, 63).Draw(t, "align")
		checked := false
		c.count = func(int) { checked = true }
		if ce := c.compare(args, align); ce != nil {
			return ce
		}
		if !checked {
			return equiv.ErrNotCompared
		}
		return nil
	})
}
