package websockettest

import (
	"io"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// TestContracts: every function of Impl and method of MaskReader and
// MaskWriter has one contract, and a quick run (a sample of its long
// methods) applies to each every mechanism its contract calls for.
func TestContracts(t *testing.T) {
	impl := Impl{Mask: ref.Mask, MaskCopy: ref.MaskCopy,
		NewMaskReader: func(r io.Reader, key [4]byte) MaskReader { return ref.NewMaskReader(r, key) },
		NewMaskWriter: func(w io.Writer, key [4]byte) MaskWriter { return ref.NewMaskWriter(w, key) }}
	var results []equiv.Result
	err := Check(impl, equiv.WithSeed(1), equiv.WithSample(equiv.ShortSample),
		equiv.WithReport(func(r equiv.Result) { results = append(results, r) }))
	if err != nil {
		t.Fatal(err)
	}
	if err := equiv.CheckContracts(Impl{}, contracts, results); err != nil {
		t.Error(err)
	}
}

// TestFirstWrong: the scale method's oracle agrees with the reference's
// Mask, octet for octet, at every length to 100, offset and phase, and
// names the first octet that differs.
func TestFirstWrong(t *testing.T) {
	in := make([]byte, 100)
	markers(in, 3)
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for n := 0; n <= len(in); n++ {
		for pos := range 8 {
			out := append([]byte(nil), in[:n]...)
			ref.Mask(out, key, pos)
			if i := firstWrong(out, in[:n], key, pos); i != -1 {
				t.Fatalf("len %d pos %d: firstWrong = %d on the reference's masking", n, pos, i)
			}
			for j := range n {
				out[j] ^= 0x40
				if i := firstWrong(out, in[:n], key, pos); i != j {
					t.Fatalf("len %d pos %d: octet %d changed, firstWrong = %d", n, pos, j, i)
				}
				out[j] ^= 0x40
			}
			if n > 0 {
				if i := firstWrong(out[:n-1], in[:n], key, pos); i != n-1 {
					t.Fatalf("len %d pos %d: one octet short, firstWrong = %d", n, pos, i)
				}
			}
		}
	}
}
