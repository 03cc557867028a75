package gate

import (
	"fmt"
	"strings"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
)

// bound is one size a proof method worked on, in the JSON report: the
// size, its outcome ("proved", "counterexample" or "unknown"), how long
// it took, the solver, and for an unknown size why.
type bound struct {
	Size      int    `json:"size"`
	Outcome   string `json:"outcome"`
	ElapsedNS int64  `json:"elapsed_ns"`
	Solver    string `json:"solver,omitempty"`
	Note      string `json:"note,omitempty"`
}

// boundsOf converts a Result's Bounds for the report, with their one-line
// summary for the table.
func boundsOf(bs []equiv.Bound) ([]bound, string) {
	if len(bs) == 0 {
		return nil, ""
	}
	out := make([]bound, len(bs))
	for i, b := range bs {
		out[i] = bound{Size: b.Size, Outcome: string(b.Outcome), ElapsedNS: b.Elapsed.Nanoseconds(), Solver: b.Solver, Note: b.Note}
	}
	return out, equiv.BoundsSummary(bs)
}

// boundsMark is a proof row's mark in the table's RESULT cell: the sizes
// proved and the first that was not ("[proved 1..64 (max 0.42s)]").
func boundsMark(r row) string {
	if r.boundsLine == "" {
		return ""
	}
	return " [" + r.boundsLine + "]"
}

// boundsDetails prints under a proof row (-v) every size with its outcome
// and time, several to a line.
func (p *rowPrinter) boundsDetails(r row) {
	if len(r.Bounds) == 0 {
		return
	}
	var items []string
	for _, b := range r.Bounds {
		item := fmt.Sprintf("%d %s %s", b.Size, b.Outcome, time.Duration(b.ElapsedNS).Round(time.Millisecond))
		if b.Note != "" && b.Outcome != string(equiv.Proved) {
			item += " (" + b.Note + ")"
		}
		items = append(items, item)
	}
	solver := ""
	if s := r.Bounds[0].Solver; s != "" {
		solver = " with " + s
	}
	wrap(p.w, "  bounds"+solver+": "+strings.Join(items, "; "))
}

// boundsText is a proof row's sizes for the JUnit report's system-out,
// one per line.
func boundsText(r row) string {
	var b strings.Builder
	for _, x := range r.Bounds {
		fmt.Fprintf(&b, "size %d: %s in %s", x.Size, x.Outcome, time.Duration(x.ElapsedNS).Round(time.Millisecond))
		if x.Solver != "" {
			fmt.Fprintf(&b, " (%s)", x.Solver)
		}
		if x.Note != "" {
			fmt.Fprintf(&b, ": %s", x.Note)
		}
		b.WriteString("\n")
	}
	return b.String()
}
