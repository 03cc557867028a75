// Command plot turns the benchstat CSV of the size sweeps
// (bench/sweep_test.go) into ratio curves: one SVG chart per pair, and a
// text summary of the worst ratio of each curve over each target's range.
// It uses only the standard library and writes files; it fetches nothing.
//
// Usage:
//
//	benchstat -format csv -col /impl sweep-mask.txt > sweep-mask.csv
//	go run ./cmd/plot -out ../docs/perf sweep-*.csv small-*.csv > summary.txt
//
// A point (a benchmark and its coordinates) read from a later file
// replaces the same point read from an earlier one: small-*.csv, the
// small sizes measured in more rounds (make bench-small), replaces that
// region of the whole sweep.
//
// A ratio is the other implementation's time over equivcheck's, both
// medians of the same benchstat run: above 1, equivcheck is faster.
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// A target is a ratio a curve must reach over a range of x.
type target struct {
	peer     string  // the impl whose curves it applies to
	ratio    float64 // the curve must be at least this
	from, to float64 // x range, inclusive
	label    string
	skip     string // curves whose label contains this are exempt ("" for none)
}

// A monotone target bounds equivcheck's own times: over x in [from, to],
// no point may take more than limit times some point further right (a
// longer input) of the same curve.
type monotone struct {
	from, to, limit float64
	label           string
}

// A chart describes how to plot one benchmark of the sweep.
type chart struct {
	bench    string // benchmark name, e.g. "SweepChecksum"
	file     string // SVG file name
	title    string
	x        string // the name=value key on the x axis
	xLabel   string
	logX     bool
	targets  []target
	monotone *monotone
}

// level is issue 31's bound for "no peer faster": a peer may be faster at
// a point by up to 3% (or by more, if benchstat does not call the
// difference significant), so a ratio below 1/1.03 is a miss.
const level = 1 / 1.03

var charts = []chart{
	{"SweepChecksum", "sweep-checksum.svg", "Internet checksum: gvisor time / equivcheck time", "size", "input size (bytes)", true,
		[]target{{"gvisor", 2, 20, 65536, "2× gvisor, 20 B–64 KiB", ""}, {"gvisor", level, 1, 4 << 20, "no peer 3% faster", ""}}, nil},
	{"SweepMask", "sweep-mask.svg", "WebSocket masking: peer time / equivcheck time", "size", "payload size (bytes)", true,
		[]target{{"gobwas", 1.5, 1024, 65536, "1.5× gobwas, 1–64 KiB", ""}, {"gobwas", 1, 1 << 20, 4<<20 + 1, "≥ gobwas, ≥ 1 MiB", ""},
			{"gobwas", level, 1, 4<<20 + 1, "no peer 3% faster", ""}, {"bytewise", level, 1, 15, "no peer 3% faster", ""},
			{"rotating", level, 1, 15, "no peer 3% faster", ""}, {"copy", 1 / 1.5, 16, 125, "≤ 1.5× copy, 16–125 B", ""}},
		&monotone{1, 256, 1.1, "no length 1–256 B over 1.1× a longer one"}},
	{"SweepMaskCopy", "sweep-maskcopy.svg", "WebSocket MaskCopy: copy time / equivcheck time", "size", "payload size (bytes)", true,
		[]target{{"copy", 1 / 1.5, 16, 125, "≤ 1.5× copy, 16–125 B", ""}}, nil},
	{"SweepVarint", "sweep-varint.svg", "QUIC varint: quicvarint time / equivcheck time", "tail", "bytes after the encoding", false,
		[]target{{"quicgo", 1.3, 0, 8, "1.3× quicvarint", ""}, {"quicgo", level, 0, 8, "no peer 3% faster", ""}}, nil},
	{"SweepAppendVarint", "sweep-appendvarint.svg", "QUIC varint append: quicvarint time / equivcheck time", "len", "encoded length (bytes)", false,
		[]target{{"quicgo", level, 1, 8, "no peer 3% faster", ""}}, nil},
	{"SweepHeader", "sweep-header.svg", "QUIC header: copy20 time / equivcheck time", "cid", "connection ID length (bytes)", false,
		nil, nil},
	{"SweepUTF8", "sweep-utf8.svg", "UTF-8 validation: peer time / equivcheck time", "size", "text size (bytes)", true,
		[]target{{"stdlib", level, 1, 1<<20 + 1, "no peer 3% faster", ""},
			{"segmentio", level, 1, 1<<20 + 1, "no peer 3% faster", ""},
			{"stdlib", 8, 1024, 1 << 20, "8× unicode/utf8, 1 KiB–1 MiB", "class=ascii"}},
		&monotone{1, 256, 1.1, "no length 1–256 B over 1.1× a longer one"}},
	{"SweepUnmask", "sweep-unmask.svg", "Unmask fused with validation: mask+valid time / equivcheck time", "size", "fragment size (bytes)", true,
		unmaskTargets, &monotone{1, 256, 1.1, "no length 1–256 B over 1.1× a longer one"}},
	{"SweepUnmaskCopy", "sweep-unmaskcopy.svg", "Unmask right after a copy: mask+valid time / equivcheck time", "size", "fragment size (bytes)", true,
		unmaskTargets, &monotone{1, 256, 1.1, "no length 1–256 B over 1.1× a longer one"}},
}

// unmaskTargets are the fused path's targets, in place and after a copy:
// never slower than Mask then Valid, 1.1× faster from 16 octets of
// non-ASCII text (issue 31), 1.5× at 16 KiB (issue 26).
var unmaskTargets = []target{
	{"mask+valid", 1, 1, 64<<10 + 1, "≥ Mask then Valid, every size", ""},
	{"mask+valid", 1.1, 16, 64<<10 + 1, "1.1× Mask then Valid from 16 B", "class=ascii"},
	{"mask+valid", 1.5, 16383, 16385, "1.5× Mask then Valid, 16 KiB", ""},
}

// A point is one row of the sweep: its coordinates, each impl's median
// time in seconds, and whether benchstat found each peer's difference from
// the base (the first column, equivcheck) significant.
type point struct {
	keys  map[string]string
	times map[string]float64
	sig   map[string]bool
}

func main() {
	out := flag.String("out", ".", "directory for the SVG files")
	flag.Parse()
	points := map[string][]point{}
	for _, name := range flag.Args() { // benchstat -format csv -col /impl outputs
		f, err := os.Open(name)
		if err != nil {
			log.Fatal(err)
		}
		p, err := readCSV(f)
		f.Close()
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		for k, v := range p {
			points[k] = merge(points[k], v)
		}
	}
	for _, c := range charts {
		series := ratios(points[c.bench], c.x)
		if len(series) == 0 {
			continue
		}
		summarize(os.Stdout, c, series)
		if c.monotone != nil {
			summarizeMonotone(os.Stdout, *c.monotone, baseSeries(points[c.bench], c.x))
		}
		svg := render(c, series)
		if err := os.WriteFile(filepath.Join(*out, c.file), []byte(svg), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// merge returns old with the points of later added, each replacing the
// point of old at the same coordinates, if any.
func merge(old, later []point) []point {
	at := map[string]int{}
	for i, p := range old {
		at[coords(p)] = i
	}
	for _, p := range later {
		if i, ok := at[coords(p)]; ok {
			old[i] = p
			continue
		}
		at[coords(p)] = len(old)
		old = append(old, p)
	}
	return old
}

// coords returns p's coordinates as one string, in key order.
func coords(p point) string {
	kv := make([]string, 0, len(p.keys))
	for k, v := range p.keys {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return strings.Join(kv, "/")
}

// readCSV reads the sec/op tables of a benchstat CSV, keyed by benchmark.
func readCSV(r io.Reader) (map[string][]point, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	points := map[string][]point{}
	var impls []string // impl name of each column, "" where none
	var timeTable bool
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return points, nil
		}
		if err != nil {
			return nil, err
		}
		switch {
		case len(rec) < 2 || strings.Contains(rec[0], ":"):
			continue // blank or "goos: linux"
		case rec[0] == "" && rec[1] == "sec/op":
			timeTable = true
		case rec[0] == "" && rec[1] != "":
			if strings.HasSuffix(rec[1], "/op") || strings.HasSuffix(rec[1], "B/s") {
				timeTable = false // unit row of another metric
				continue
			}
			impls = rec // header row: impl names
		case timeTable && rec[0] != "geomean":
			name, p := parseRow(rec, impls)
			points[name] = append(points[name], p)
		}
	}
}

// parseRow splits "SweepMask/align=0/size=64-2" into the benchmark name and
// its coordinates, and reads each impl's median.
func parseRow(rec, impls []string) (string, point) {
	name := rec[0]
	if i := strings.LastIndex(name, "-"); i > 0 {
		name = name[:i] // GOMAXPROCS suffix
	}
	parts := strings.Split(name, "/")
	p := point{keys: map[string]string{}, times: map[string]float64{}, sig: map[string]bool{}}
	for _, kv := range parts[1:] {
		if k, v, ok := strings.Cut(kv, "="); ok {
			p.keys[k] = v
		}
	}
	for i := 1; i < len(rec) && i < len(impls); i++ {
		if impls[i] == "" {
			continue
		}
		if t, err := strconv.ParseFloat(rec[i], 64); err == nil {
			p.times[impls[i]] = t
		}
		// A peer's columns are sec/op, CI, vs base, P; "~" means no
		// significant difference.
		if i+2 < len(rec) && i > 1 {
			p.sig[impls[i]] = rec[i+2] != "~" && rec[i+2] != ""
		}
	}
	return parts[0], p
}

// A series is one curve: peer time / equivcheck time against x.
type series struct {
	peer  string
	label string // the peer and the coordinates other than x
	xs    []float64
	ys    []float64
	sig   []bool // the difference from equivcheck is significant
}

// ratios groups points into one series per peer and per value of the
// coordinates other than x, sorted by x.
func ratios(points []point, x string) []*series {
	byLabel := map[string]*series{}
	var order []string
	for _, p := range points {
		base, ok := p.times["equivcheck"]
		xv, err := strconv.ParseFloat(p.keys[x], 64)
		if !ok || err != nil || base <= 0 {
			continue
		}
		var rest []string
		for k, v := range p.keys {
			if k != x {
				rest = append(rest, k+"="+v)
			}
		}
		sort.Strings(rest)
		for peer, t := range p.times {
			if peer == "equivcheck" {
				continue
			}
			label := strings.Join(append([]string{peer}, rest...), " ")
			s := byLabel[label]
			if s == nil {
				s = &series{peer: peer, label: label}
				byLabel[label] = s
				order = append(order, label)
			}
			s.xs = append(s.xs, xv)
			s.ys = append(s.ys, t/base)
			s.sig = append(s.sig, p.sig[peer])
		}
	}
	sort.Strings(order)
	out := make([]*series, 0, len(order))
	for _, l := range order {
		s := byLabel[l]
		sort.Sort(byX{s})
		out = append(out, s)
	}
	return out
}

type byX struct{ s *series }

func (b byX) Len() int           { return len(b.s.xs) }
func (b byX) Less(i, j int) bool { return b.s.xs[i] < b.s.xs[j] }
func (b byX) Swap(i, j int) {
	b.s.xs[i], b.s.xs[j] = b.s.xs[j], b.s.xs[i]
	b.s.ys[i], b.s.ys[j] = b.s.ys[j], b.s.ys[i]
	b.s.sig[i], b.s.sig[j] = b.s.sig[j], b.s.sig[i]
}

// summarize writes, for each target and each series it applies to, the
// worst ratio over the target's range, where it occurs, how many points
// miss the target, and how many of those benchstat calls significant
// (p < 0.05; for a target of 1, only those are real dips: the others are
// within the run's noise).
func summarize(w io.Writer, c chart, all []*series) {
	fmt.Fprintf(w, "%s\n", c.title)
	for _, s := range all {
		lo, hi := s.ys[0], s.ys[0]
		for _, y := range s.ys {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
		fmt.Fprintf(w, "  %-28s %d points, ratio %.2f..%.2f\n", s.label, len(s.xs), lo, hi)
		for _, t := range c.targets {
			if t.peer != s.peer || t.skip != "" && strings.Contains(s.label, t.skip) {
				continue
			}
			worst, at, miss, sig, n := math.Inf(1), 0.0, 0, 0, 0
			for i, x := range s.xs {
				if x < t.from || x > t.to {
					continue
				}
				n++
				if s.ys[i] < t.ratio {
					miss++
					if s.sig[i] {
						sig++
					}
				}
				if s.ys[i] < worst {
					worst, at = s.ys[i], x
				}
			}
			if n > 0 {
				fmt.Fprintf(w, "    %-24s worst %.2f at %s=%s; %d of %d points below %.2f, %d of them significant\n",
					t.label, worst, c.x, strconv.FormatFloat(at, 'f', -1, 64), miss, n, t.ratio, sig)
			}
		}
	}
}

// baseSeries groups equivcheck's own times (seconds) into one series per
// value of the coordinates other than x, sorted by x.
func baseSeries(points []point, x string) []*series {
	byLabel := map[string]*series{}
	var order []string
	for _, p := range points {
		t, ok := p.times["equivcheck"]
		xv, err := strconv.ParseFloat(p.keys[x], 64)
		if !ok || err != nil {
			continue
		}
		var rest []string
		for k, v := range p.keys {
			if k != x {
				rest = append(rest, k+"="+v)
			}
		}
		sort.Strings(rest)
		label := strings.Join(append([]string{"equivcheck"}, rest...), " ")
		s := byLabel[label]
		if s == nil {
			s = &series{peer: "equivcheck", label: label}
			byLabel[label] = s
			order = append(order, label)
		}
		s.xs, s.ys, s.sig = append(s.xs, xv), append(s.ys, t), append(s.sig, false)
	}
	sort.Strings(order)
	out := make([]*series, 0, len(order))
	for _, l := range order {
		sort.Sort(byX{byLabel[l]})
		out = append(out, byLabel[l])
	}
	return out
}

// summarizeMonotone writes, for each series of absolute times, the worst
// ratio of a point in [m.from, m.to] to the fastest point to its right,
// where it occurs, and how many points exceed m.limit.
func summarizeMonotone(w io.Writer, m monotone, all []*series) {
	for _, s := range all {
		worst, at, over, n := 0.0, 0.0, 0, 0
		right := math.Inf(1) // the fastest time to the right of i
		for i := len(s.xs) - 1; i >= 0; i-- {
			if x := s.xs[i]; x >= m.from && x <= m.to && !math.IsInf(right, 1) {
				n++
				r := s.ys[i] / right
				if r > m.limit {
					over++
				}
				if r > worst {
					worst, at = r, x
				}
			}
			right = math.Min(right, s.ys[i])
		}
		if n > 0 {
			fmt.Fprintf(w, "  %-28s %s: worst %.2f at %s; %d of %d points above %.2f\n",
				s.label, m.label, worst, strconv.FormatFloat(at, 'f', -1, 64), over, n, m.limit)
		}
	}
}
