package battery

import (
	"errors"
	"fmt"
	"strings"
	"sync"
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
// -short (the README's test command) runs the bad implementations only;
// .ci/run's battery step runs both and prints the line. The bad
// implementations run one at a time (each must be caught within
// catchLimit); the twins after them, two at a time (go test's -parallel,
// GOMAXPROCS by default), each distinct twin once.
func TestBattery(t *testing.T) {
	bugs := All()
	if len(bugs) < 40 {
		t.Errorf("the battery has %d bugs, want at least 40", len(bugs))
	}
	caught := 0
	seen := map[string]bool{}
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
		})
	}
	twinsLine := "twins not run (-short)"
	if !testing.Short() {
		twinsLine = fmt.Sprintf("%d of %d twins pass", checkTwins(t, bugs), len(bugs))
	}
	fmt.Printf("battery: %d of %d known-bad implementations caught at quick (%.1f%%); %s\n",
		caught, len(bugs), 100*float64(caught)/float64(max(len(bugs), 1)), twinsLine)
}

// checkTwins runs the whole quick suite on each distinct bug-free twin
// (a TwinKey's once), in parallel subtests, and returns how many bugs'
// twins pass.
func checkTwins(t *testing.T, bugs []Bug) int {
	keyOf := func(b Bug) string {
		if b.TwinKey != "" {
			return b.TwinKey
		}
		return b.Name
	}
	verdicts := map[string]error{}
	t.Run("twins", func(t *testing.T) {
		var mu sync.Mutex
		for _, b := range bugs {
			key := keyOf(b)
			if _, ok := verdicts[key]; ok {
				continue
			}
			verdicts[key] = nil
			t.Run(key, func(t *testing.T) {
				t.Parallel()
				err := equiv.Check(b.Twin, equiv.WithLevel(equiv.Quick))
				mu.Lock()
				verdicts[key] = err
				mu.Unlock()
				if err != nil {
					t.Errorf("twin fails: the bug-free twin of %s: %v", b.Name, err)
				}
			})
		}
	})
	pass := 0
	for _, b := range bugs {
		if verdicts[keyOf(b)] == nil {
			pass++
		}
	}
	return pass
}

// catches runs s at quick and reports whether a method caught it in time
// with a minimized counterexample, and how (or why not).
func catches(s equiv.Suite) (string, bool) {
	forgetMemos()
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
