package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fixture is the analysis of testdata/fix.json, gremlins' report for the
// package testdata/mod/fix: one uncompilable mutant reported as KILLED, one
// mutant reported twice, one program reported under two mutators, one
// survivor classified and one not. It is computed once: each killed mutant
// costs a go build and a go vet.
var fixture = sync.OnceValues(func() (*result, error) {
	classes, err := readClasses("testdata/mutation.md")
	if err != nil {
		return nil, err
	}
	b, err := newBuilder("testdata/mod", []string{"fix"})
	if err != nil {
		return nil, err
	}
	defer b.close()
	r, err := analyse("testdata/mod", "fix", "testdata/fix.json", b, classes)
	fixtureClasses = classes
	return r, err
})

var fixtureClasses []*class

func analyseFixture(t *testing.T) (*result, []*class) {
	t.Helper()
	r, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	return r, fixtureClasses
}

func TestCorrectedFigures(t *testing.T) {
	r, _ := analyseFixture(t)
	if r.Raw.Killed != 7 || r.Raw.Lived != 2 {
		t.Errorf("raw killed, lived = %d, %d; want 7, 2 (as gremlins counts)", r.Raw.Killed, r.Raw.Lived)
	}
	if got := r.Duplicates(); got != 2 {
		t.Errorf("duplicates = %d, want 2 (fix.go:13:7 reported twice; fix.go:21:9 under two mutators)", got)
	}
	if r.Unbuilt != 1 || r.Killed != 4 || r.Lived != 2 {
		t.Errorf("uncompilable, killed, lived = %d, %d, %d; want 1, 4, 2", r.Unbuilt, r.Killed, r.Lived)
	}
	if got, want := r.Efficacy(), 100*4.0/6; math.Abs(got-want) > 1e-9 {
		t.Errorf("corrected efficacy = %v, want %v", got, want)
	}
	if got, want := r.RawEfficacy(), 100*7.0/9; math.Abs(got-want) > 1e-9 {
		t.Errorf("raw efficacy = %v, want %v", got, want)
	}
	for _, m := range r.Mutants {
		unbuilt := m.Unbuilt != ""
		if want := m.Line == 6; unbuilt != want {
			t.Errorf("%s %v: uncompilable = %v (%q), want %v", m.Pos(), m.Types, unbuilt, m.Unbuilt, want)
		}
		if m.Line == 21 && (len(m.Types) != 2 || m.To.String() != "+") {
			t.Errorf("%s: types %v, rewritten to %q; want both mutators, one program writing +", m.Pos(), m.Types, m.To)
		}
	}
}

func TestSurvivorsAgainstClassification(t *testing.T) {
	r, classes := analyseFixture(t)
	failures := r.failures(options{min: 50, docs: "testdata/mutation.md"})
	if len(failures) != 1 || !strings.Contains(failures[0], "fix/fix.go:13:7 CONDITIONALS_BOUNDARY `if n > hi {`") {
		t.Errorf("failures at min 50 = %q; want only the unclassified survivor fix.go:13:7", failures)
	}
	failures = r.failures(options{min: 97, docs: "testdata/mutation.md"})
	if len(failures) != 2 || !strings.Contains(failures[0], "66.7% is below 97%") {
		t.Errorf("failures at min 97 = %q; want the efficacy, then the survivor", failures)
	}
	if !classes[0].used || classes[1].used {
		t.Errorf("classification used = %v, %v; want the survivor's entry used, the killed mutant's not",
			classes[0].used, classes[1].used)
	}
}

func TestClassificationMatch(t *testing.T) {
	m := &mutant{File: "p/f.go", Line: 40, Col: 7, Types: []string{"ARITHMETIC_BASE", "INVERT_NEGATIVES"}, Text: "x := a - b"}
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"- p/f.go:40:7 ARITHMETIC_BASE `x := a - b` — equivalent: r", true},
		{"- p/f.go:12:7 INVERT_NEGATIVES `x := a - b` -- equivalent: line moved", true},
		{"- p/f.go:40:8 ARITHMETIC_BASE `x := a - b` — equivalent: other column", false},
		{"- p/f.go:40:7 ARITHMETIC_BASE `x := a - c` — equivalent: line edited", false},
		{"- p/f.go:40:7 CONDITIONALS_BOUNDARY `x := a - b` — equivalent: other mutator", false},
		{"- q/f.go:40:7 ARITHMETIC_BASE `x := a - b` — equivalent: other file", false},
	} {
		classes := parseClasses(t, tc.line)
		if got := classify(classes, m) != nil; got != tc.want {
			t.Errorf("%s: matches = %v, want %v", tc.line, got, tc.want)
		}
	}
	if got := parseClasses(t, "- p/f.go:40:7 ARITHMETIC_BASE `a - b` — equivalent: `n` is even, see `f`")[0]; got.Text != "a - b" || got.Reason != "`n` is even, see `f`" {
		t.Errorf("text, reason = %q, %q", got.Text, got.Reason)
	}
}

// TestCopiesClassifiedOneByOne: where copies of one line (the same file,
// column, mutator and text) are classified one by one, each survivor takes
// the entry written with its own line, and a survivor whose line moved
// takes an entry no other has used, so that no entry is reported unused.
func TestCopiesClassifiedOneByOne(t *testing.T) {
	lines := "- p/f.go:10:7 ARITHMETIC_BASE `x := a - b` — equivalent: first\n" +
		"- p/f.go:20:7 ARITHMETIC_BASE `x := a - b` — equivalent: second\n" +
		"- p/f.go:30:7 ARITHMETIC_BASE `x := a - b` — equivalent: third"
	classes := parseClasses(t, lines)
	at := func(line int) *mutant {
		return &mutant{File: "p/f.go", Line: line, Col: 7, Types: []string{"ARITHMETIC_BASE"}, Text: "x := a - b"}
	}
	for _, tc := range []struct {
		line int
		want string
	}{{30, "third"}, {10, "first"}, {25, "second"}} {
		if c := classify(classes, at(tc.line)); c == nil || c.Reason != tc.want {
			t.Errorf("survivor at line %d: classified by %+v, want the entry %q", tc.line, c, tc.want)
		}
	}
	for _, c := range classes {
		if !c.used {
			t.Errorf("entry %q unused", c.Reason)
		}
	}
}

func TestMalformedClassification(t *testing.T) {
	file := filepath.Join(t.TempDir(), "m.md")
	os.WriteFile(file, []byte("- p/f.go:40:7 ARITHMETIC_BASE `x := a - b` equivalent, no dash\n"), 0o644)
	if _, err := readClasses(file); err == nil {
		t.Error("readClasses accepted a classification line it cannot parse")
	}
}

func parseClasses(t *testing.T, line string) []*class {
	t.Helper()
	file := filepath.Join(t.TempDir(), "m.md")
	if err := os.WriteFile(file, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	classes, err := readClasses(file)
	if err != nil {
		t.Fatal(err)
	}
	return classes
}

func TestRunReport(t *testing.T) {
	dir := t.TempDir()
	failures, err := run(options{src: "testdata/mod", docs: "testdata/mutation.md", min: 97, survivors: dir},
		[]string{"fix=testdata/fix.json"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(failures) != 2 {
		t.Errorf("failures = %q, want 2", failures)
	}
	list, err := os.ReadFile(filepath.Join(dir, "fix.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := "- fix/fix.go:10:7 CONDITIONALS_BOUNDARY `if n < lo {` — equivalent: at n == lo both return lo.\n" +
		"- fix/fix.go:13:7 CONDITIONALS_BOUNDARY `if n > hi {`  (not classified)\n"
	if string(list) != want {
		t.Errorf("fix.txt =\n%s\nwant\n%s", list, want)
	}
	summary, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil || !strings.Contains(string(summary), "66.7%") || !strings.Contains(string(summary), "77.8%") {
		t.Errorf("summary.txt = %q, %v; want raw 77.8%% and corrected 66.7%%", summary, err)
	}
}
