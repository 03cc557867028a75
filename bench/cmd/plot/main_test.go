package main

import (
	"bytes"
	"strings"
	"testing"
)

// sampleCSV is benchstat -format csv -col /impl output for two points of
// the mask sweep, with the B/s table that SetBytes adds (to be skipped).
const sampleCSV = `goos: linux
goarch: amd64
,equivcheck,,gobwas,,,,copy,,,
,sec/op,CI,sec/op,CI,vs base,P,sec/op,CI,vs base,P
SweepMask/align=0/size=64-2,2e-09,3%,4e-09,1%,+100.00%,p=0.002 n=6,1e-09,2%,-50.00%,p=0.002 n=6
SweepMask/align=0/size=16-2,3e-09,3%,3e-09,1%,~,p=0.900 n=6,1.5e-09,2%,-50.00%,p=0.002 n=6
geomean,2.4e-09,,3.4e-09,,+41%,,1.2e-09,,-50%,

,equivcheck,,gobwas,,,,copy,,,
,B/s,CI,B/s,CI,vs base,P,B/s,CI,vs base,P
SweepMask/align=0/size=64-2,3.2e+10,3%,1.6e+10,1%,-50.00%,p=0.002 n=6,6.4e+10,2%,+100.00%,p=0.002 n=6
`

func TestRatios(t *testing.T) {
	points, err := readCSV(strings.NewReader(sampleCSV))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(points["SweepMask"]); n != 2 {
		t.Fatalf("read %d points of SweepMask, want 2 (the B/s table must be skipped)", n)
	}
	got := map[string][]float64{}
	for _, s := range ratios(points["SweepMask"], "size") {
		if s.xs[0] != 16 || s.xs[1] != 64 {
			t.Errorf("%s: xs = %v, want [16 64] (sorted)", s.label, s.xs)
		}
		got[s.label] = s.ys
		if s.peer == "gobwas" && (s.sig[0] || !s.sig[1]) {
			t.Errorf("%s: sig = %v, want [false true] (\"~\" at size=16)", s.label, s.sig)
		}
	}
	want := map[string][]float64{
		"copy align=0":   {0.5, 0.5}, // copy time / equivcheck time
		"gobwas align=0": {1, 2},
	}
	for label, ys := range want {
		g := got[label]
		if len(g) != 2 || g[0] != ys[0] || g[1] != ys[1] {
			t.Errorf("ratios[%q] = %v, want %v", label, g, ys)
		}
	}
	if len(got) != len(want) {
		t.Errorf("series %v, want exactly %v", got, want)
	}
}

func TestSummaryAndSVG(t *testing.T) {
	points, err := readCSV(strings.NewReader(sampleCSV))
	if err != nil {
		t.Fatal(err)
	}
	c := chart{bench: "SweepMask", x: "size", logX: true, title: "t",
		targets: []target{{"gobwas", 1.5, 1, 100, "1.5× gobwas", ""}}}
	all := ratios(points["SweepMask"], "size")
	var sum bytes.Buffer
	summarize(&sum, c, all)
	if !strings.Contains(sum.String(), "worst 1.00 at size=16; 1 of 2 points below 1.50, 0 of them significant") {
		t.Errorf("summary does not report the miss at size=16:\n%s", sum.String())
	}
	svg := render(c, all)
	if !strings.HasPrefix(svg, "<svg") || strings.Count(svg, "<polyline") != 2 {
		t.Errorf("render: want an <svg> with 2 polylines, got:\n%s", svg)
	}
}

// TestMonotone checks the bound on equivcheck's own times: a point is
// compared with the fastest point to its right, and the last point with
// nothing.
func TestMonotone(t *testing.T) {
	points := []point{
		{keys: map[string]string{"size": "1", "class": "a"}, times: map[string]float64{"equivcheck": 3e-9}},
		{keys: map[string]string{"size": "2", "class": "a"}, times: map[string]float64{"equivcheck": 2e-9}},
		{keys: map[string]string{"size": "3", "class": "a"}, times: map[string]float64{"equivcheck": 2.5e-9}},
	}
	var out bytes.Buffer
	summarizeMonotone(&out, monotone{1, 3, 1.1, "mono"}, baseSeries(points, "size"))
	if want := "equivcheck class=a"; !strings.Contains(out.String(), want) ||
		!strings.Contains(out.String(), "mono: worst 1.50 at 1; 1 of 2 points above 1.10") {
		t.Errorf("summary = %q", out.String())
	}
}

// TestSkip checks that a target with skip leaves out the curves whose
// label contains it.
func TestSkip(t *testing.T) {
	c := chart{bench: "S", x: "size", targets: []target{{"p", 2, 1, 10, "2x", "class=ascii"}}}
	all := []*series{
		{peer: "p", label: "p class=ascii", xs: []float64{1}, ys: []float64{1}, sig: []bool{true}},
		{peer: "p", label: "p class=cjk", xs: []float64{1}, ys: []float64{1}, sig: []bool{true}},
	}
	var out bytes.Buffer
	summarize(&out, c, all)
	if n := strings.Count(out.String(), "2x"); n != 1 {
		t.Errorf("the target was applied to %d curves, want 1 (cjk):\n%s", n, out.String())
	}
}

// TestMaskMonotone checks that the masking sweep carries issue 26's bound:
// no length from 1 to 256 octets over 1.1 times a longer one.
func TestMaskMonotone(t *testing.T) {
	for _, c := range charts {
		if c.bench == "SweepMask" {
			if m := c.monotone; m == nil || m.from != 1 || m.to != 256 || m.limit != 1.1 {
				t.Errorf("SweepMask's monotone bound = %+v, want 1..256 at 1.1", m)
			}
			return
		}
	}
	t.Error("no SweepMask chart")
}

// TestMerge checks that a point read later replaces the point at the same
// coordinates, and that the others are kept.
func TestMerge(t *testing.T) {
	pt := func(size string, ns float64) point {
		return point{keys: map[string]string{"align": "0", "size": size}, times: map[string]float64{"equivcheck": ns}}
	}
	got := merge([]point{pt("1", 3), pt("512", 9)}, []point{pt("1", 2), pt("2", 4)})
	want := map[string]float64{"1": 2, "512": 9, "2": 4}
	if len(got) != len(want) {
		t.Fatalf("merge gave %d points, want %d: %v", len(got), len(want), got)
	}
	for _, p := range got {
		if w := want[p.keys["size"]]; p.times["equivcheck"] != w {
			t.Errorf("size=%s: %v, want %v", p.keys["size"], p.times["equivcheck"], w)
		}
	}
}
