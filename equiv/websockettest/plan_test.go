package websockettest

import (
	"bytes"
	"io/fs"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// decodePlan must turn any bytes into a usable plan: boundaries sorted and
// within the payload (a fuzz run found an unsorted one), alignments in
// 0..63, the streamers' kinds, offset and warm-up in range.
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
		if p.source < 0 || p.source >= numSources || p.sink < 0 || p.sink >= numSinks ||
			p.at < 0 || p.at > n || p.warm < 0 || p.warm > min(n, maxWarm) {
			t.Fatalf("streamers' fields %+v for len %d", p, n)
		}
	})
}

// encodePlan, with which counterexamples are written, inverts decodePlan,
// the streamers' fields included.
func TestPlanRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 5000).Draw(t, "len")
		bounds := rapid.SliceOfN(rapid.IntRange(0, n), 0, maxChunks).Draw(t, "bounds")
		slices.Sort(bounds)
		want := plan{align: rapid.IntRange(0, 63).Draw(t, "align"), dstAlign: rapid.IntRange(0, 63).Draw(t, "dst"), chunks: bounds}
		if rapid.Bool().Draw(t, "stream fields") {
			want.source = rapid.IntRange(0, numSources-1).Draw(t, "source")
			want.sink = rapid.IntRange(0, numSinks-1).Draw(t, "sink")
			want.at = rapid.IntRange(0, n).Draw(t, "at")
			want.warm = rapid.IntRange(0, min(n, maxWarm)).Draw(t, "warm")
			want.warmSame = rapid.Bool().Draw(t, "warmSame")
		}
		if rapid.Bool().Draw(t, "copy shape") {
			want.dstSlack = rapid.IntRange(0, 255).Draw(t, "slack")
			if want.overlaps = rapid.Bool().Draw(t, "overlaps"); want.overlaps {
				want.overlap = rapid.IntRange(-1<<15, 1<<15-1).Draw(t, "overlap")
			}
		}
		if !want.encodable() {
			t.Fatalf("%+v is not encodable", want)
		}
		got := decodePlan(encodePlan(want), n)
		if got.align != want.align || got.dstAlign != want.dstAlign || !slices.Equal(got.chunks, want.chunks) ||
			got.source != want.source || got.sink != want.sink || got.at != want.at || got.warm != want.warm || got.warmSame != want.warmSame ||
			got.dstSlack != want.dstSlack || got.overlaps != want.overlaps || got.overlap != want.overlap {
			t.Fatalf("decodePlan(encodePlan(%+v)) = %+v", want, got)
		}
	})
}

// The streamers' fields are appended to the plan format: every corpus
// file written before them decodes to the alignments and chunks it had,
// with zero streamers' fields, and a plan without them encodes to the
// bytes it did before.
func TestPlanKeepsOldFiles(t *testing.T) {
	files, err := fs.Glob(corpus.FS, "websocket/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	for _, name := range files {
		data, err := fs.ReadFile(corpus.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		v, err := equiv.UnmarshalFuzzInput(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		payload, planBytes := v[0].([]byte), v[3].([]byte)
		p := decodePlan(planBytes, len(payload))
		if p.source != 0 || p.sink != 0 || p.at != 0 || p.warm != 0 || p.warmSame || p.dstSlack != 0 || p.overlaps {
			t.Errorf("%s: plan %q has streamers' fields %+v", name, planBytes, p)
		}
		if len(planBytes) >= 3 && !bytes.Equal(encodePlan(p), planBytes) {
			t.Errorf("%s: plan %q encodes back as %q", name, planBytes, encodePlan(p))
		}
	}
	if got := encodePlan(plan{align: 5, chunks: []int{1, 300}}); !bytes.Equal(got, []byte{5, 0, 2, 0, 1, 1, 1, 44, 1}) {
		t.Errorf("encodePlan without streamers' fields = %v", got)
	}
}

func TestKeyBytes(t *testing.T) {
	if k := keyBytes(0x37fa213d); k != [4]byte{0x37, 0xfa, 0x21, 0x3d} || keyWord(k) != 0x37fa213d {
		t.Errorf("keyBytes(0x37fa213d) = %x", k)
	}
}

// TestCopyShapeCounterexample: a MaskCopy that writes into dst's slack,
// or accepts an overlap, is caught with a counterexample whose plan
// replays it through CheckInput (so fuzzing reaches those shapes too).
func TestCopyShapeCounterexample(t *testing.T) {
	spill := func(dst, src []byte, key [4]byte, pos int) int {
		next := ref.MaskCopy(dst, src, key, pos)
		if len(dst) > len(src) {
			dst[len(src)] ^= 1
		}
		return next
	}
	lax := func(dst, src []byte, key [4]byte, pos int) int {
		for i := range src {
			dst[i] = src[i] ^ key[(pos+i)&3]
		}
		return (pos + len(src)) & 3
	}
	for name, mc := range map[string]func(dst, src []byte, key [4]byte, pos int) int{"slack": spill, "overlap": lax} {
		impl := Impl{Mask: ref.Mask, MaskCopy: mc}
		c := newChecker(impl, equiv.NewConfig())
		var ce *equiv.Counterexample
		if name == "slack" {
			ce, _ = c.minimized([]byte{1, 2, 3}, func(d []byte) (*equiv.Counterexample, bool) { return c.maskCopyApart(d, keys[0], 1, 3, 5, 4) })
		} else {
			ce, _ = c.checkOverlap([]byte{1, 2, 3, 4, 5, 6, 7, 8}, keys[0], 1, 3, 0)
		}
		if ce == nil || len(ce.FuzzArgs) != 4 {
			t.Fatalf("%s: counterexample %v, want one with FuzzArgs", name, ce)
		}
		a := ce.FuzzArgs
		if err := CheckInput(impl, a[0].([]byte), a[1].(uint32), a[2].(int), a[3].([]byte)); err == nil {
			t.Errorf("%s: CheckInput(%v) passes, want the counterexample again", name, ce)
		}
		if err := CheckInput(Impl{Mask: ref.Mask, MaskCopy: ref.MaskCopy}, a[0].([]byte), a[1].(uint32), a[2].(int), a[3].([]byte)); err != nil {
			t.Errorf("%s: the reference fails its own plan: %v", name, err)
		}
	}
}
