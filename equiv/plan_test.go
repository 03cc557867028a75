package equiv

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The plan decoders must turn any bytes into a usable plan: boundaries
// sorted and within the data (a fuzz run found an unsorted one), and they
// must invert the encoders the counterexamples are written with.
func TestPlansDecodeAnyBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		plan := rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, "plan")
		n := rapid.IntRange(0, 300).Draw(t, "len")
		cp := decodeChecksumPlan(plan, n)
		mp := decodeMaskPlan(plan, n)
		for _, b := range [][]int{cp.splits, mp.chunks} {
			if !slices.IsSorted(b) || (len(b) > 0 && (b[0] < 0 || b[len(b)-1] > n)) {
				t.Fatalf("boundaries %v for len %d", b, n)
			}
		}
		if cp.align < 0 || cp.align > 63 || mp.align < 0 || mp.align > 63 || mp.dstAlign < 0 || mp.dstAlign > 63 {
			t.Fatalf("alignments %d %d %d", cp.align, mp.align, mp.dstAlign)
		}
	})
}

func TestPlansRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 5000).Draw(t, "len")
		bounds := rapid.SliceOfN(rapid.IntRange(0, n), 0, 7).Draw(t, "bounds")
		slices.Sort(bounds)
		align, dst := rapid.IntRange(0, 63).Draw(t, "align"), rapid.IntRange(0, 63).Draw(t, "dst")
		var upd *[3]uint16
		if rapid.Bool().Draw(t, "update") {
			upd = &[3]uint16{rapid.Uint16().Draw(t, "hc"), rapid.Uint16().Draw(t, "m"), rapid.Uint16().Draw(t, "m2")}
		}
		cp := decodeChecksumPlan(encodeChecksumPlan(checksumPlan{align: align, splits: bounds, update: upd}), n)
		if cp.align != align || !slices.Equal(cp.splits, bounds) || (upd == nil) != (cp.update == nil) || (upd != nil && *upd != *cp.update) {
			t.Fatalf("checksum plan round trip: %+v", cp)
		}
		mp := decodeMaskPlan(encodeMaskPlan(maskPlan{align: align, dstAlign: dst, chunks: bounds}), n)
		if mp.align != align || mp.dstAlign != dst || !slices.Equal(mp.chunks, bounds) {
			t.Fatalf("mask plan round trip: %+v", mp)
		}
	})
}
