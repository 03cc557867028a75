package equiv_test

import (
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestOverlapRunsAgainWhenDescheduled: calls whose spans overlap, but
// whose threads the scheduler switched out in turn (both lanes' threads
// pinned to one CPU for the first attempt, as a loaded machine shares
// one between them), did not run together: a try-lock taken by one was
// free again when the other, switched back in, tried it. Their round is
// run again, by both lanes.
func TestOverlapRunsAgainWhenDescheduled(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("calls cannot overlap with one thread for goroutines")
	}
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		t.Skipf("sched_getaffinity: %v", err)
	}
	var one unix.CPUSet
	for cpu := range 1024 {
		if all.IsSet(cpu) {
			one.Set(cpu)
			break
		}
	}
	spin := func(d time.Duration) {
		for start := time.Now(); time.Since(start) < d; {
		}
	}
	body := func(lane, round, attempt int) {
		if attempt > 0 {
			spin(500 * time.Microsecond)
			return
		}
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := unix.SchedSetaffinity(0, &one); err != nil {
			t.Errorf("sched_setaffinity: %v", err)
			return
		}
		defer unix.SchedSetaffinity(0, &all)
		spin(8 * time.Millisecond)
	}
	const rounds = 4
	_, runs, together := overlapToy(t, rounds, func(int, int, int) time.Duration { return 0 }, body)
	if together != rounds {
		t.Errorf("the calls' spans overlapped in %d of %d rounds", together, rounds)
	}
	for round := range rounds {
		if runs[0][round] < 2 || runs[1][round] != runs[0][round] {
			t.Errorf("round %d ran %d times on lane 1, %d on lane 2: want both at least twice (once on one CPU)",
				round, runs[0][round], runs[1][round])
		}
	}
}
