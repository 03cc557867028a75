package websockettest

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// decodePlan must turn any bytes into a usable plan: boundaries sorted and
// within the payload (a fuzz run found an unsorted one), alignments in
// 0..63.
func TestPlanDecodesAnyBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, "plan")
		n := rapid.IntRange(0, 300).Draw(t, "len")
		p := decodePlan(b, n)
		if !slices.IsSorted(p.chunks) || (len(p.chunks) > 0 && (p.chunks[0] < 0 || p.chunks[len(p.chunks)-1] > n)) {
			t.Fatalf("boundaries %v for len %d", p.chunks, n)
		}
		if p.align < 0 || p.align > 63 || p.dstAlign < 0 || p.dstAlign > 63 {
			t.Fatalf("alignments %d %d", p.align, p.dstAlign)
		}
	})
}

// encodePlan, with which counterexamples are written, inverts decodePlan.
func TestPlanRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 5000).Draw(t, "len")
		bounds := rapid.SliceOfN(rapid.IntRange(0, n), 0, maxChunks).Draw(t, "bounds")
		slices.Sort(bounds)
		want := plan{align: rapid.IntRange(0, 63).Draw(t, "align"), dstAlign: rapid.IntRange(0, 63).Draw(t, "dst"), chunks: bounds}
		if !want.encodable() {
			t.Fatalf("%+v is not encodable", want)
		}
		got := decodePlan(encodePlan(want), n)
		if got.align != want.align || got.dstAlign != want.dstAlign || !slices.Equal(got.chunks, want.chunks) {
			t.Fatalf("decodePlan(encodePlan(%+v)) = %+v", want, got)
		}
	})
}

func TestKeyBytes(t *testing.T) {
	if k := keyBytes(0x37fa213d); k != [4]byte{0x37, 0xfa, 0x21, 0x3d} || keyWord(k) != 0x37fa213d {
		t.Errorf("keyBytes(0x37fa213d) = %x", k)
	}
}
