package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A classification line in docs/mutation.md names a surviving mutant the way
// this command prints it, then why it is equivalent:
//
//   - optimized/checksum/checksum.go:123:9 CONDITIONALS_BOUNDARY `if n >= 64 {` — equivalent: <reason>
//
// It matches a survivor with the same file, column, mutator and source line
// text; the line number is not compared, so edits elsewhere in the file keep
// the classification, while an edit of the line itself (or of its
// indentation) asks for the mutant to be looked at again.
var (
	classLine = regexp.MustCompile("^\\s*[-*]\\s+(\\S+\\.go):(\\d+):(\\d+)\\s+([A-Z_/]+)\\s+`(.*?)`\\s+(?:—|--)\\s+equivalent:\\s*(\\S.*)$")
	// looksLikeClass catches a line meant as a classification that does not parse.
	looksLikeClass = regexp.MustCompile(`^\s*[-*]\s+\S+\.go:\d+:\d+\s`)
)

type class struct {
	File   string
	Line   int // as written; informative only
	Col    int
	Types  []string
	Text   string
	Reason string
	Where  string // docs file:line of the entry
	used   bool
}

func readClasses(file string) ([]*class, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var classes []*class
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		m := classLine.FindStringSubmatch(line)
		if m == nil {
			if looksLikeClass.MatchString(line) {
				return nil, fmt.Errorf("%s:%d: not a classification (want \"- file.go:line:col MUTATOR `source line` — equivalent: reason\"): %s", file, n, line)
			}
			continue
		}
		ln, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		classes = append(classes, &class{File: m[1], Line: ln, Col: col,
			Types: strings.Split(m[4], "/"), Text: strings.TrimSpace(m[5]), Reason: m[6],
			Where: fmt.Sprintf("%s:%d", file, n)})
	}
	return classes, sc.Err()
}

// classify returns the entry that classifies m, or nil. Of the entries
// that match it (several do where copies of one line are classified one
// by one), the one written with m's line number wins, then one that no
// other survivor has used, so that each copy's entry is its own.
func classify(classes []*class, m *mutant) *class {
	var best *class
	for _, c := range classes {
		if c.File != m.File || c.Col != m.Col || c.Text != m.Text ||
			!slices.ContainsFunc(c.Types, func(t string) bool { return slices.Contains(m.Types, t) }) {
			continue
		}
		if c.Line == m.Line {
			best = c
			break
		}
		if best == nil || best.used && !c.used {
			best = c
		}
	}
	if best != nil {
		best.used = true
	}
	return best
}

// entryLine prints m as a classification line without its reason.
func entryLine(m *mutant) string {
	return fmt.Sprintf("- %s %s `%s`", m.Pos(), strings.Join(m.Types, "/"), m.Text)
}
