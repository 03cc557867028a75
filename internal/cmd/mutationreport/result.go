package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// result is one package's figures, raw (gremlins') and corrected.
type result struct {
	Pkg     string
	Entries int
	Raw     rawCounts
	Mutants []*mutant

	// Corrected counts, over distinct mutated programs.
	Killed, Lived, Unbuilt, TimedOut, NotCovered int
}

func (r *result) Duplicates() int { return r.Entries - len(r.Mutants) }

func (r *result) RawEfficacy() float64 { return efficacy(r.Raw.Killed, r.Raw.Lived) }

func (r *result) Efficacy() float64 { return efficacy(r.Killed, r.Lived) }

// analyse reads pkg's gremlins report, groups duplicates, rebuilds every
// killed mutant to find the uncompilable ones and matches the survivors
// with their classification.
func analyse(src, pkg, report string, b *builder, classes []*class) (*result, error) {
	entries, err := readReport(pkg, report)
	if err != nil {
		return nil, err
	}
	ms, err := mutants(src, entries)
	if err != nil {
		return nil, err
	}
	r := &result{Pkg: pkg, Entries: len(entries), Raw: countRaw(entries), Mutants: ms}
	for _, m := range ms {
		switch m.Status() {
		case killed:
			if m.Unbuilt, err = b.unbuilt(pkg, m); err != nil {
				return nil, err
			}
			if m.Unbuilt != "" {
				r.Unbuilt++
			} else {
				r.Killed++
			}
		case lived:
			r.Lived++
			m.class = classify(classes, m)
		case notViable:
			r.Unbuilt++
		case timedOut:
			r.TimedOut++
		case notCovered:
			r.NotCovered++
		}
	}
	return r, nil
}

func (r *result) survivors() []*mutant {
	var out []*mutant
	for _, m := range r.Mutants {
		if m.Status() == lived {
			out = append(out, m)
		}
	}
	return out
}

// failures lists why r fails the gate: efficacy below the minimum, a
// survivor nobody classified.
func (r *result) failures(o options) []string {
	var f []string
	if e := r.Efficacy(); e < o.min {
		f = append(f, fmt.Sprintf("%s: corrected efficacy %.1f%% is below %.0f%% (%d killed, %d lived)",
			r.Pkg, e, o.min, r.Killed, r.Lived))
	}
	for _, m := range r.survivors() {
		if m.class == nil {
			f = append(f, fmt.Sprintf("%s %s `%s` survived and is not classified in %s: kill it with a test or add it there as equivalent, with the reason",
				m.Pos(), strings.Join(m.Types, "/"), m.Text, o.docs))
		}
	}
	return f
}

func printTable(w io.Writer, results []*result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "package\traw killed\traw lived\traw efficacy\t\tduplicates\tuncompilable\tkilled\tlived\ttimed out\tnot covered\tefficacy\t")
	var total result
	total.Pkg = "total"
	for _, r := range append(results, &total) {
		if r != &total {
			total.add(r)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f%%\t\n", r.Pkg,
			r.Raw.Killed, r.Raw.Lived, r.RawEfficacy(), r.Duplicates(), r.Unbuilt,
			r.Killed, r.Lived, r.TimedOut, r.NotCovered, r.Efficacy())
	}
	tw.Flush()
}

func (r *result) add(o *result) {
	r.Entries += o.Entries
	r.Raw.Killed += o.Raw.Killed
	r.Raw.Lived += o.Raw.Lived
	r.Mutants = append(r.Mutants, o.Mutants...)
	r.Killed += o.Killed
	r.Lived += o.Lived
	r.Unbuilt += o.Unbuilt
	r.TimedOut += o.TimedOut
	r.NotCovered += o.NotCovered
}

// printDetails lists what the correction removed and every survivor.
func printDetails(w io.Writer, results []*result) {
	for _, r := range results {
		fmt.Fprintf(w, "\n%s:\n", r.Pkg)
		for _, m := range r.Mutants {
			switch {
			case m.Unbuilt != "" || m.Status() == notViable:
				fmt.Fprintf(w, "  uncompilable %s %s: %s\n", m.Pos(), strings.Join(m.Types, "/"), m.Unbuilt)
			case len(m.Statuses) > 1:
				fmt.Fprintf(w, "  counted once %s %s (reported %s)\n", m.Pos(), strings.Join(m.Types, "/"), strings.Join(m.Statuses, ", "))
			}
			if m.Status() == timedOut {
				fmt.Fprintf(w, "  timed out %s %s (counted neither killed nor lived)\n", m.Pos(), strings.Join(m.Types, "/"))
			}
		}
		for _, m := range r.survivors() {
			fmt.Fprintf(w, "  LIVED %s\n", survivorLine(m))
		}
	}
}

func survivorLine(m *mutant) string {
	if m.class == nil {
		return entryLine(m) + "  (not classified)"
	}
	return fmt.Sprintf("%s — equivalent: %s", entryLine(m), m.class.Reason)
}

// writeSurvivors writes r's survivors to dir/<pkg-with-dashes>.txt.
func writeSurvivors(dir string, r *result) error {
	if dir == "" {
		return nil
	}
	var sb strings.Builder
	for _, m := range r.survivors() {
		sb.WriteString(survivorLine(m) + "\n")
	}
	name := strings.ReplaceAll(r.Pkg, "/", "-") + ".txt"
	return os.WriteFile(filepath.Join(dir, name), []byte(sb.String()), 0o644)
}
