package equiv_test

import (
	"math/rand/v2"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
)

// TestScaleAlignTurns checks the three placements of a scale input: flush
// at its end, at its start, and drawn, and that the first two differ at
// every size, so that a size's next input of the same turn lies elsewhere.
func TestScaleAlignTurns(t *testing.T) {
	for _, n := range []int{1, 63, 64, 65, 1000, 1024, 1 << 20, 1<<20 + 1} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		want := rand.New(rand.NewPCG(1, uint64(n)))
		for turn := range 6 {
			got := equiv.ScaleAlign(rng, n, turn)
			drawn := want.IntN(64) // one draw at every turn
			switch turn % 3 {
			case 0:
				if (n+got)%64 != 0 && n%64 != 0 {
					t.Errorf("ScaleAlign(n=%d, turn %d) = %d: does not end flush at 64", n, turn, got)
				}
				if got == 0 {
					t.Errorf("ScaleAlign(n=%d, turn %d) = 0, the start turn's placement", n, turn)
				}
			case 1:
				if got != 0 {
					t.Errorf("ScaleAlign(n=%d, turn %d) = %d, want 0", n, turn, got)
				}
			case 2:
				if got != drawn {
					t.Errorf("ScaleAlign(n=%d, turn %d) = %d, want the draw %d", n, turn, got, drawn)
				}
			}
			if got < 0 || got >= 64 {
				t.Errorf("ScaleAlign(n=%d, turn %d) = %d, out of [0, 64)", n, turn, got)
			}
		}
	}
}
