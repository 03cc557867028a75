package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
)

// Statuses gremlins writes in its JSON report (mutator.Status.String in v0.6.0).
const (
	killed     = "KILLED"
	lived      = "LIVED"
	timedOut   = "TIMED OUT"
	notCovered = "NOT COVERED"
	notViable  = "NOT VIABLE"
)

// entry is one mutation as gremlins reports it: a mutator applied to the
// operator token at a position, and the outcome of the package's tests.
type entry struct {
	File   string // module-relative, slash-separated
	Line   int
	Col    int
	Type   string
	Status string
}

// gremlinsReport is the part of gremlins' -o JSON this command reads. File
// names are relative to the directory gremlins was pointed at.
type gremlinsReport struct {
	Files []struct {
		Name      string `json:"file_name"`
		Mutations []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
			Line   int    `json:"line"`
			Column int    `json:"column"`
		} `json:"mutations"`
	} `json:"files"`
}

// readReport reads the gremlins JSON report of the package in module
// directory pkg (e.g. "optimized/checksum").
func readReport(pkg, file string) ([]entry, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var rep gremlinsReport
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	var entries []entry
	for _, f := range rep.Files {
		for _, m := range f.Mutations {
			entries = append(entries, entry{
				File:   path.Join(pkg, f.Name),
				Line:   m.Line,
				Col:    m.Column,
				Type:   m.Type,
				Status: m.Status,
			})
		}
	}
	return entries, nil
}

// rawCounts are the figures as gremlins computes them: every entry counted,
// a build failure counted as killed.
type rawCounts struct {
	Killed, Lived, TimedOut, NotCovered, NotViable int
}

func countRaw(entries []entry) rawCounts {
	var c rawCounts
	for _, e := range entries {
		switch e.Status {
		case killed:
			c.Killed++
		case lived:
			c.Lived++
		case timedOut:
			c.TimedOut++
		case notCovered:
			c.NotCovered++
		case notViable:
			c.NotViable++
		}
	}
	return c
}

// efficacy is killed/(killed+lived) in percent, as gremlins defines it; 100
// when nothing was tested.
func efficacy(killed, lived int) float64 {
	if killed+lived == 0 {
		return 100
	}
	return 100 * float64(killed) / float64(killed+lived)
}
