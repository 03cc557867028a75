package term

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestBuilderAgreesWithNaive checks every simplification and fold of the
// Builder against direct evaluation, on random expressions and values.
func TestBuilderAgreesWithNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 3000 {
		b := NewBuilder()
		var vars []*Term
		for i, w := range []uint8{8, 16, 64, 32, 1, 0, 8, 64} {
			vars = append(vars, b.NewVar(fmt.Sprintf("v%d", i), w))
		}
		terms, naive := RandomExprs(rng, b, vars, 1, 6)
		term := terms[0]
		for range 8 {
			vals := make([]uint64, len(vars))
			assign := map[*Term]uint64{}
			for i := range vals {
				vals[i] = rng.Uint64()
				if rng.IntN(3) == 0 {
					vals[i] = []uint64{0, 1, ^uint64(0), 1 << 63}[rng.IntN(4)]
				}
				if vars[i].W == 0 {
					vals[i] &= 1
				}
				assign[vars[i]] = vals[i]
			}
			if got, want := NewEval(assign).Value(term), naive(0, vals); got != want {
				t.Fatalf("built %s evaluates to %#x under %v, want %#x", term, got, vals, want)
			}
		}
	}
}
