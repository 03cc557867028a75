package symex

import (
	"testing"

	ows "github.com/equivcheck/equivcheck/optimized/websocket"
	"github.com/equivcheck/equivcheck/prove/internal/constructs"
	rws "github.com/equivcheck/equivcheck/reference/websocket"
)

func TestSmoke(t *testing.T) {
	p := program(t)
	agree(t, p, constructs.Add, uint8(200), uint8(100))
	gen := ows.Impls()[len(ows.Impls())-1].Mask
	for n := range 40 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*37 + 1)
		}
		agree(t, p, gen, b, [4]byte{1, 2, 3, 4}, n-3)
		agree(t, p, rws.Mask, b, [4]byte{1, 2, 3, 4}, n-3)
	}
}
