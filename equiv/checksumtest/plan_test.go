package checksumtest

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The plan decoder must turn any bytes into a usable plan: splits sorted
// and within the data (a fuzz run found an unsorted one), and it must
// invert the encoder the counterexamples are written with.
func TestPlanDecodesAnyBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, "plan")
		n := rapid.IntRange(0, 300).Draw(t, "len")
		p := decodePlan(b, n)
		if !slices.IsSorted(p.splits) || (len(p.splits) > 0 && (p.splits[0] < 0 || p.splits[len(p.splits)-1] > n)) {
			t.Fatalf("splits %v for len %d", p.splits, n)
		}
		if len(b) > 1 && b[1] < extended && len(p.splits) > maxSplits {
			t.Fatalf("%d splits from a short-form count byte %#x", len(p.splits), b[1])
		}
		if p.align < 0 || p.align > 63 {
			t.Fatalf("alignment %d", p.align)
		}
	})
}

func TestPlanRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.OneOf(rapid.IntRange(0, 5000), rapid.IntRange(0xFFFF, 1<<20)).Draw(t, "len")
		splits := rapid.SliceOfN(rapid.IntRange(0, n), 0, 300).Draw(t, "splits")
		slices.Sort(splits)
		align := rapid.IntRange(0, 63).Draw(t, "align")
		var upd *[3]uint16
		if rapid.Bool().Draw(t, "update") {
			upd = &[3]uint16{rapid.Uint16().Draw(t, "hc"), rapid.Uint16().Draw(t, "m"), rapid.Uint16().Draw(t, "m2")}
		}
		p := decodePlan(encodePlan(plan{align: align, splits: splits, update: upd}), n)
		if p.align != align || !slices.Equal(p.splits, splits) || (upd == nil) != (p.update == nil) || (upd != nil && *upd != *p.update) {
			t.Fatalf("plan round trip: %+v", p)
		}
	})
}

// TestFuzzArgsReplay: every Input's fuzz form decodes to the same
// coordinates.
func TestFuzzArgsReplay(t *testing.T) {
	for _, in := range []Input{
		{Func: "Sum", Data: []byte{1, 2, 3}, Initial: 0xfffe, Align: 63},
		{Func: "Checksum", Data: []byte{}, Align: 5},
		{Func: "Digest", Data: make([]byte, 40), Align: 1, Splits: []int{0, 3, 3, 40}},
		{Func: "Update", Update: [3]uint16{0xdd2f, 0x5555, 0x3285}},
	} {
		args := in.fuzzArgs()
		data, initial := args[0].([]byte), args[1].(uint16)
		p := decodePlan(args[2].([]byte), len(data))
		if !slices.Equal(data, in.Data) || initial != in.Initial || p.align != in.Align || !slices.Equal(p.splits, in.Splits) {
			t.Errorf("%s: fuzz args %v decode to %x, %#04x, %+v", in.Func, args, data, initial, p)
		}
		if (in.Func == "Update") != (p.update != nil) || (p.update != nil && *p.update != in.Update) {
			t.Errorf("%s: update %v, want %v", in.Func, p.update, in.Update)
		}
	}
	// Past maxSplits splits, or past 65535 bytes, the extended form.
	for _, in := range []Input{
		{Func: "Digest", Data: make([]byte, 10), Splits: make([]int, maxSplits+1)},
		{Func: "Digest", Data: make([]byte, 1<<16+1), Splits: []int{1, 1 << 16}},
	} {
		args := in.fuzzArgs()
		if args == nil || args[2].([]byte)[1] != extended {
			t.Fatalf("a Digest with %d splits of %d bytes has fuzz args %v", len(in.Splits), len(in.Data), args)
		}
		if p := decodePlan(args[2].([]byte), len(in.Data)); !slices.Equal(p.splits, in.Splits) {
			t.Errorf("extended splits %v decode to %v", in.Splits, p.splits)
		}
	}
}

// TestPlanShortForm: plans written before the extended form decode as
// they did: the count byte mod 8 (0x37 is 7 splits), uint16 splits.
func TestPlanShortForm(t *testing.T) {
	b := []byte{0x30, 0x37}
	for _, v := range []uint16{9, 1, 8, 2, 7, 3, 6} {
		b = append(b, byte(v>>8), byte(v), 1)
	}
	p := decodePlan(b, 8)
	if p.align != 0x30 || !slices.Equal(p.splits, []int{0, 1, 2, 3, 6, 7, 8}) {
		t.Errorf("short-form plan decodes to align %d splits %v", p.align, p.splits)
	}
}
