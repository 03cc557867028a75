package equiv_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
)

// overlapToy runs Run.Overlap for rounds rounds, each lane calling a
// "function", body (nil: one that sleeps for 2 ms), and returns the
// method's Result, how many times each lane ran each round, and how many
// rounds' calls were in flight together at least once. late(lane, round,
// attempt) delays a lane's call after its wait (a thread the operating
// system set aside), outside the call's span.
func overlapToy(t *testing.T, rounds int, late func(lane, round, attempt int) time.Duration, body func(lane, round, attempt int), opts ...equiv.Option) (equiv.Result, [2][]int, int) {
	t.Helper()
	var runs [2][]int
	var inFlight atomic.Int32
	var mu sync.Mutex
	together := map[int]bool{}
	call := &equiv.Contract{Func: "F"}
	method := func(r *equiv.Run) error {
		return r.Overlap(rounds, func(cfg *equiv.Config) func(lane, round int, wait func()) (int, error) {
			h := equiv.NewHarness(cfg)
			mine := make([]int, rounds)
			return func(lane, round int, wait func()) (int, error) {
				attempt := mine[round]
				mine[round]++
				runs[lane] = mine
				h.Before(func() { wait(); time.Sleep(late(lane, round, attempt)) })
				k := h.Call(call)
				k.Do(func() {
					if inFlight.Add(1) > 1 {
						mu.Lock()
						together[round] = true
						mu.Unlock()
					}
					if body == nil {
						time.Sleep(2 * time.Millisecond)
					} else {
						body(lane, round, attempt)
					}
					inFlight.Add(-1)
				})
				k.End()
				// Again re-checks every eighth input: its count must not
				// depend on how often a round ran.
				_, ran := equiv.Again(h, round, func(r int) (int, bool) { return r, true }, func(int) *equiv.Counterexample { return nil })
				if ran {
					return 2, nil
				}
				return 1, nil
			}
		})
	}
	var res equiv.Result
	opts = append(opts, equiv.WithReport(func(r equiv.Result) { res = r }))
	if err := equiv.Check(equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "m", Func: method}}}, opts...); err != nil {
		t.Fatalf("Check: %v", err)
	}
	return res, runs, len(together)
}

// TestOverlapRunsAgainWhenCallsMissed: a lane held back after its wait
// until the other's call has returned (as a loaded machine holds back a
// thread) has its round run again, by both lanes, until the calls
// overlap; each round's comparisons are counted once.
func TestOverlapRunsAgainWhenCallsMissed(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 || runtime.GOARCH == "wasm" {
		t.Skip("calls cannot overlap with one thread for goroutines")
	}
	const rounds = 16
	late := func(lane, round, attempt int) time.Duration {
		if lane == 1 && attempt == 0 {
			return 10 * time.Millisecond // past the other lane's 2 ms call
		}
		return 0
	}
	res, runs, together := overlapToy(t, rounds, late, nil)
	serial, _, _ := overlapToy(t, rounds, func(int, int, int) time.Duration { return 0 }, nil, equiv.Serial())
	if want := int64(2*rounds + 2*rounds/8); res.Checked != want || serial.Checked != want {
		t.Errorf("Checked = %d (each round run once: %d), want %d: each round counted once, however often it ran, Again in every eighth",
			res.Checked, serial.Checked, want)
	}
	if together != rounds {
		t.Errorf("the calls overlapped in %d of %d rounds", together, rounds)
	}
	for round, n := range runs[1] {
		if n < 2 {
			t.Errorf("lane 2 ran round %d %d times, want at least 2 (once too late)", round, n)
		}
		// Both lanes run a missed round again: one that ran it again
		// alone would meet the other's next round, out of step for the
		// rest of the method.
		if runs[0][round] != n {
			t.Errorf("round %d ran %d times on lane 1, %d on lane 2: want the lanes in step", round, runs[0][round], n)
		}
	}
}

// TestOverlapSerialRunsOnce: without overlap (Serial), each round runs
// once on each lane, one lane after the other.
func TestOverlapSerialRunsOnce(t *testing.T) {
	const rounds = 3
	res, runs, together := overlapToy(t, rounds, func(int, int, int) time.Duration { return 0 }, nil, equiv.Serial())
	if res.Checked != 2*rounds || together != 0 {
		t.Errorf("Checked = %d, overlapping rounds %d; want %d (no Again in 3 rounds) and 0", res.Checked, together, 2*rounds)
	}
	for lane := range runs {
		for round, n := range runs[lane] {
			if n != 1 {
				t.Errorf("lane %d ran round %d %d times, want once", lane+1, round, n)
			}
		}
	}
}
