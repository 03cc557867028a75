package battery

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
)

// catchLimit is the longest a bug may take to be caught at quick: from
// the start of the suite to the end of the method that finds it.
const catchLimit = 10 * time.Second

// TestBattery runs every bad implementation at the quick level and its twin
// at quick, and prints the catch rate. A bug that escapes is a bug in the
// suite. The twins are most of the cost (each runs the whole quick suite):
// -short runs the bad implementations only, for the CI step that prints the
// catch rate after the full run has already passed the twins.
func TestBattery(t *testing.T) {
	bugs := All()
	if len(bugs) < 40 {
		t.Errorf("the battery has %d bugs, want at least 40", len(bugs))
	}
	caught, twins := 0, 0
	seen := map[string]bool{}
	twinRan := map[string]error{} // a shared twin's verdict, by TwinKey
	for _, b := range bugs {
		if seen[b.Name] || b.Record == "" || b.Axis == "" || !strings.Contains(b.Name, "/") {
			t.Errorf("bug %q: duplicate name, or no record, axis or pair", b.Name)
		}
		seen[b.Name] = true
		t.Run(b.Name, func(t *testing.T) {
			if msg, ok := catches(b.Bad); ok {
				caught++
				t.Logf("caught: %s", msg)
			} else {
				t.Errorf("ESCAPED (%s): %s", b.Axis, msg)
			}
			if testing.Short() {
				return
			}
			err, ran := twinRan[b.TwinKey]
			if !ran || b.TwinKey == "" {
				err = equiv.Check(b.Twin, equiv.WithLevel(equiv.Quick))
				twinRan[b.TwinKey] = err
			} else {
				t.Logf("the bug-free twin is %s, checked once", b.TwinKey)
			}
			if err != nil {
				t.Errorf("the bug-free twin fails: %v", err)
			} else {
				twins++
			}
		})
	}
	twinsLine := fmt.Sprintf("%d of %d twins pass", twins, len(bugs))
	if testing.Short() {
		twinsLine = "twins not run (-short)"
	}
	fmt.Printf("battery: %d of %d known-bad implementations caught at quick (%.1f%%); %s\n",
		caught, len(bugs), 100*float64(caught)/float64(max(len(bugs), 1)), twinsLine)
}

// catches runs s at quick and reports whether a method caught it in time
// with a minimized counterexample, and how (or why not).
func catches(s equiv.Suite) (string, bool) {
	start := time.Now()
	var first *equiv.Result
	var took time.Duration
	stop := make(chan struct{})
	report := func(r equiv.Result) {
		if first == nil && r.Err != nil && !r.Interrupted {
			first, took = &r, time.Since(start)
			close(stop) // the rest of the suite need not run
		}
	}
	equiv.Check(s, equiv.WithLevel(equiv.Quick), equiv.WithReport(report), equiv.WithStop(stop))
	if first == nil {
		return fmt.Sprintf("no method failed in %v", time.Since(start).Round(time.Millisecond)), false
	}
	ces := equiv.Counterexamples(first.Err)
	if len(ces) == 0 {
		return fmt.Sprintf("%s failed without a counterexample: %v", first.Method, first.Err), false
	}
	ce := ces[0]
	msg := fmt.Sprintf("%s after %v, %d-byte input: %s", first.Method, took.Round(time.Millisecond), len(ce.Input), oneLine(ce.Error()))
	switch {
	case took > catchLimit:
		return msg + fmt.Sprintf(" (over the %v limit)", catchLimit), false
	case !errors.Is(first.Err, equiv.ErrMismatch):
		return msg + " (not a mismatch)", false
	case ce.Got == ce.Want:
		return msg + " (got == want)", false
	}
	return msg, true
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
