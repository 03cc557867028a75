package equiv

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// MethodProve is the name of the proof method (module
// github.com/equivcheck/equivcheck/prove): for every input of each size
// up to a bound, the implementation equals the reference, shown by an SMT
// solver rather than by running inputs.
const MethodProve = "prove"

// ErrUnproved is matched by the error of a proof method that could not
// prove some size within its limits (the solver ran out of time or
// memory, or the execution out of steps): that size is neither a proof nor
// a counterexample, and never a pass.
var ErrUnproved = errors.New("not proved within the limits")

// Outcome is what a proof method found for one size.
type Outcome string

// The outcomes of a Bound.
const (
	Proved   Outcome = "proved"         // equal on every input of the size
	Refuted  Outcome = "counterexample" // a counterexample of the size (Run.Fail reports it)
	Unproved Outcome = "unknown"        // neither, within the limits (ErrUnproved)
)

// Bound is what a proof method found for one input size (a length of the
// input, or whatever the method calls its size): the outcome, how long it
// took and with which solver, and for an unknown one why.
type Bound struct {
	Size    int
	Outcome Outcome
	Elapsed time.Duration
	Solver  string // the solver and its version, as the method names it
	Note    string // why an Unproved size is unknown, or what a size covered
}

// Bound records b for the method's Result (Result.Bounds, in the order
// recorded) and counts as progress for the call timeout. A proof method
// records one per size it worked on and Counts one per size proved.
func (r *Run) Bound(b Bound) {
	r.bounds = append(r.bounds, b)
	r.Alive()
}

// Alive tells the watchdog (WithCallTimeout) that the method is making
// progress through a long step of its own, such as a solver call that is
// bounded by a time limit of its own. It may be called from any
// goroutine.
func (r *Run) Alive() {
	if r.cfg.beat != nil {
		r.cfg.beat.Add(1)
	}
}

// Stopped returns a channel that is closed when the run is stopped
// (WithStop): a method waiting on something of its own (a solver) ends
// its wait then, and returns an error matching ErrInterrupted. It is nil
// (never closed) when the run cannot be stopped.
func (r *Run) Stopped() <-chan struct{} { return r.cfg.stop }

// BoundsSummary renders bounds in a few words: the sizes proved as ranges
// with the longest time, then each size with another outcome ("proved
// 1..64 (max 0.42s); 65: counterexample").
func BoundsSummary(bounds []Bound) string {
	var parts []string
	var proved []int
	var worst time.Duration
	for _, b := range bounds {
		if b.Outcome == Proved {
			proved = append(proved, b.Size)
			worst = max(worst, b.Elapsed)
		}
	}
	if len(proved) > 0 {
		parts = append(parts, fmt.Sprintf("proved %s (max %s)", ranges(proved), roundDuration(worst)))
	}
	for _, b := range bounds {
		if b.Outcome != Proved {
			parts = append(parts, fmt.Sprintf("%d: %s", b.Size, b.Outcome))
		}
	}
	return strings.Join(parts, "; ")
}

// ranges renders sorted sizes as "0..9, 16, 24".
func ranges(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d..%d", ns[i], ns[j]))
		} else {
			parts = append(parts, fmt.Sprint(ns[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(time.Second)
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(10 * time.Millisecond)
}
