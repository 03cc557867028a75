package equiv

import (
	"fmt"
	"maps"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/equivcheck/equivcheck/internal/contractknob"
)

// overlapLanes is how many goroutines Run.Overlap releases together.
const overlapLanes = 2

// Overlap runs rounds rounds of calls on two goroutines (lanes) at once,
// so that the calls overlap: a path an implementation takes only while
// another call is in flight (a shared pool, a try-lock with a fallback, a
// table built lazily on first use) runs, and its results are compared.
// Each lane first calls newLane once with a configuration of its own (for
// a checker of its own), then, for each round, the function it returned
// with the lane's number, the round and wait: the lane prepares its input
// (and the reference's result), has wait called just before the call it
// makes to the implementation (Harness.Before), which returns when every
// lane has reached it, so that the calls start together. The function
// returns how many inputs it compared and the first counterexample (or
// error); Overlap counts the comparisons (Run.Count). A round's calls
// should take long enough to overlap (a large input, or a batch of small
// ones). A round may wait several times, at the same points in every
// round.
//
// Released together, two calls still need two threads the operating
// system runs at once, which a loaded machine does not always give: the
// harness times each call made just after a wait, from the wait to the
// Call's End (every Do of it: a sequence it returned is ranged there),
// and a round is run again by both lanes when such a call of longCall or
// more met no call of the other lane's begun before its midpoint, or when
// the scheduler switched such a call's thread out for part of it (where
// the operating system says so: Linux). It runs again up to
// overlapAttempts times, while the other lane is still running, after a
// pause, its comparisons counted once, and Again (in the harnesses made
// under the lane's configuration) counting from where it stood before the
// round, so that a round's comparisons are the same however often it ran.
// The first counterexample (or error) a lane returns stops both after the
// round; it is returned with the round and lane in its Args. Calls under
// the lanes' configurations count MechOverlap for their functions. A
// Serial run, or one with the NoOverlap knob set, runs the lanes one
// after the other, not together, and once each.
func (r *Run) Overlap(rounds int, newLane func(cfg *Config) func(lane, round int, wait func()) (int, error)) error {
	together := !r.cfg.serial && !contractknob.NoOverlap.Load()
	b := newBarrier(overlapLanes)
	ov := &overlap{start: time.Now(), retry: together && !turnTaking && runtime.GOMAXPROCS(0) > 1}
	errs := make([]error, overlapLanes)
	counts := make([]int, overlapLanes)
	lanes := make([]*overlapLane, overlapLanes)
	var failed sync.Once
	stop := make(chan struct{})
	var wg sync.WaitGroup
	body := func(lane int, step func(lane, round int, wait func()) (int, error)) {
		defer b.leave()
		defer ov.done.Add(1)
		wait := func() {}
		if together {
			wait = b.wait
		}
		for round := range rounds {
			saved := lanes[lane].saveAgain()
			for attempt := 0; ; attempt++ {
				if attempt > 0 {
					saved.restore()
					// A round whose calls did not overlap ran while
					// the lanes had one thread between them (a
					// collection, another process): wait a little
					// longer each time for a second to be free.
					time.Sleep(time.Duration(attempt) * retryPause)
				}
				select {
				case <-stop:
					return
				default:
				}
				var n int
				err := withFaultPanics(func() (err error) { n, err = stepSafely(step, lane, round, wait); return err })
				if attempt == 0 {
					counts[lane] += n
				}
				if err != nil {
					errs[lane] = overlapError(err, lane, round)
					failed.Do(func() { close(stop) })
					return
				}
				if !lanes[lane].again(round, attempt, wait) {
					break
				}
			}
		}
	}
	steps := make([]func(lane, round int, wait func()) (int, error), overlapLanes)
	for lane := range overlapLanes {
		lanes[lane] = &overlapLane{ov: ov, lane: lane}
		steps[lane] = newLane(r.cfg.forOverlap(lanes[lane]))
	}
	if !together {
		for lane := range overlapLanes {
			body(lane, steps[lane])
		}
	} else {
		for lane := range overlapLanes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body(lane, steps[lane])
			}()
		}
		wg.Wait()
	}
	r.Count(counts[0] + counts[1])
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// overlapAttempts is how many times at most a round of Run.Overlap runs
// while its calls do not overlap the other lane's, the k-th attempt after
// a pause of k retryPauses (66 in all).
const (
	overlapAttempts = 12
	retryPause      = time.Millisecond
)

// overlap is what Run.Overlap's lanes share to tell whether their calls
// overlapped: the span of each lane's latest call made just after a wait
// (a synchronized call), as offsets from start.
type overlap struct {
	start time.Time
	retry bool         // calls can overlap here: run a round whose calls did not again
	done  atomic.Int32 // lanes that have finished
	mu    sync.Mutex
	from  [overlapLanes]time.Duration
	to    [overlapLanes]time.Duration // when the call ended, if it has (not open)
	open  [overlapLanes]bool          // a synchronized call's span has begun and not ended
	// missed is set when a synchronized call of the lane's round missed
	// the other lane's (end says when).
	missed [overlapLanes]bool
	// roundMissed records, by round and attempt, whether either lane's
	// attempt missed: both lanes run a round again, or neither does.
	roundMissed map[[2]int]bool
}

// longCall is how long a synchronized call must take for Run.Overlap to
// require that it overlap the other lane's: shorter ones overlap or not
// by the microseconds the lanes take to leave their wait, on any
// machine.
const longCall = 100 * time.Microsecond

// overlapLane is a lane's view of the overlap, in its Config, and the
// harnesses made under that Config.
type overlapLane struct {
	ov        *overlap
	lane      int
	harnesses []*Harness
	began     threadSample // the thread when the synchronized call began
}

// threadSample is what the operating system says of a thread at one
// moment (sampleThread), where it says it (ok).
type threadSample struct {
	cpu       time.Duration // CPU time the thread has used
	tid       int
	preempted int64 // times the scheduler switched it out while it could run
	ok        bool
}

// offCPU is how long a call of wall's span may spend switched out by the
// scheduler and still count as having run throughout: a tick's worth of
// another task, not a time slice.
func offCPU(wall time.Duration) time.Duration { return 10*time.Microsecond + wall/8 }

// descheduled reports whether the thread sampled at a and b, a call's
// span of wall apart, was switched out by the scheduler in between for
// longer than offCPU allows: the call's span says it was in flight, but
// it did not run while the other lane's call did (a loaded machine), and
// a try-lock it took once switched back in found the other's released. A
// call that blocked (a mutex the other lane held: the two did meet) or
// moved to another thread is not taken for descheduled.
func descheduled(a, b threadSample, wall time.Duration) bool {
	if !a.ok || !b.ok || a.tid != b.tid || b.preempted == a.preempted {
		return false
	}
	return wall-(b.cpu-a.cpu) > offCPU(wall)
}

// againCounts is where Again stood in each of a lane's harnesses before a
// round: a round run again starts from there, so that Again re-checks the
// same inputs in it, whatever ran before, and a round's count is the same
// however often it ran.
type againCounts []struct {
	h     *Harness
	tries map[*Contract]int64
	unit  uint64
}

func (l *overlapLane) saveAgain() againCounts {
	a := make(againCounts, len(l.harnesses))
	for i, h := range l.harnesses {
		a[i].h, a[i].tries, a[i].unit = h, maps.Clone(h.tries), h.unit
	}
	return a
}

func (a againCounts) restore() {
	for _, s := range a {
		s.h.tries, s.h.unit = maps.Clone(s.tries), s.unit
	}
}

// begin records the start of the lane's synchronized call.
func (l *overlapLane) begin() {
	o := l.ov
	l.began = sampleThread()
	now := time.Since(o.start)
	o.mu.Lock()
	o.from[l.lane], o.open[l.lane] = now, true
	o.mu.Unlock()
}

// end records the end of the lane's synchronized call, if one is open;
// the call missed the other lane's if the scheduler switched its thread
// out for part of it (descheduled), or if it was long and the other
// lane's latest synchronized call did not meet it: one that began before
// this one's midpoint and had not ended when this one began did (any
// earlier call of the other lane's ended before the wait both passed).
// A call begun in this one's second half may have found this one's lock
// already released, or its work done.
func (l *overlapLane) end() {
	o := l.ov
	if !o.open[l.lane] { // only this lane writes its entry: no lock to read it
		return
	}
	now := time.Since(o.start)
	after := sampleThread()
	o.mu.Lock()
	defer o.mu.Unlock()
	i, j := l.lane, 1-l.lane
	o.to[i], o.open[i] = now, false
	wall := now - o.from[i]
	met := o.from[j] != 0 && o.from[j] < o.from[i]+wall/2 && (o.open[j] || o.to[j] > o.from[i])
	if !met && wall >= longCall || descheduled(l.began, after, wall) {
		o.missed[i] = true
	}
}

// again reports whether the lanes should run their round again: calls can
// overlap here, a synchronized call of either lane's attempt missed the
// other's (end), the other lane is still running and attempts remain. Both lanes decide together, after both have ended the
// attempt (wait): a lane that ran its round again alone would meet the
// other's next round call for call, out of step for the rest of the
// method, each call paired with one of another round (another length,
// another key phase).
func (l *overlapLane) again(round, attempt int, wait func()) bool {
	l.end()
	o := l.ov
	key := [2]int{round, attempt}
	o.mu.Lock()
	if o.missed[l.lane] {
		if o.roundMissed == nil {
			o.roundMissed = map[[2]int]bool{}
		}
		o.roundMissed[key] = true
	}
	o.missed[l.lane] = false
	o.mu.Unlock()
	wait()
	o.mu.Lock()
	missed := o.roundMissed[key]
	o.mu.Unlock()
	return o.retry && missed && o.done.Load() == 0 && attempt+1 < overlapAttempts
}

// stepSafely calls step, turning a panic that escapes it into an error
// with the stack, so that a lane's goroutine never crashes the process.
func stepSafely(step func(lane, round int, wait func()) (int, error), lane, round int, wait func()) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return step(lane, round, wait)
}

// overlapError says in a counterexample which lane and round found it.
func overlapError(err error, lane, round int) error {
	if ce, ok := err.(*Counterexample); ok {
		ce.Args = fmt.Sprintf("%s (overlap lane %d of %d, round %d)", ce.Args, lane+1, overlapLanes, round)
		return ce
	}
	return fmt.Errorf("overlap lane %d, round %d: %w", lane+1, round, err)
}

// forOverlap returns the configuration of an overlap lane beside a method
// run with c: c's settings, its scopes under the shared lock, an input in
// flight and kept results of its own, and the overlap role, so that its
// harnesses count MechOverlap.
func (c *Config) forOverlap(l *overlapLane) *Config {
	d := *c
	d.flight, d.kept, d.role, d.overlap = nil, keptResults{}, roleOverlap, l
	return &d
}

// barrier releases its parties together: each wait returns once every
// party still taking part has called it in the same generation. A party
// that leaves no longer holds the others back.
//
// The party that arrives last releases the others, which sleep on a
// condition variable and start their calls when the scheduler runs them:
// tens of microseconds after it, milliseconds on a loaded machine. The
// overlap's rules (a long call must meet one begun before its midpoint)
// run a round whose calls started too far apart again. A releaser that
// spun until the parties it woke were running made no difference there:
// the five try-lock and pool bugs of the battery were caught in 60 of 60
// runs beside a busy loop with it and without it, a few per cent sooner
// without (docs/equivalence.md, the overlap row).
type barrier struct {
	mu      sync.Mutex
	cond    *sync.Cond
	parties int
	waiting int
	gen     uint64
}

func newBarrier(n int) *barrier {
	b := &barrier{parties: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	gen := b.gen
	if b.waiting++; b.waiting >= b.parties {
		b.release()
		return
	}
	for gen == b.gen {
		b.cond.Wait()
	}
}

// leave takes the caller out of the barrier, releasing the others if they
// were waiting only for it.
func (b *barrier) leave() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.parties--; b.waiting > 0 && b.waiting >= b.parties {
		b.release()
	}
}

// release starts the next generation, waking the waiting parties.
func (b *barrier) release() {
	b.waiting = 0
	b.gen++
	b.cond.Broadcast()
}
