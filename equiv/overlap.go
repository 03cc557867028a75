package equiv

import (
	"fmt"
	"runtime/debug"
	"sync"

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
// (and the reference's result), calls wait, which returns when every lane
// has reached it, and then calls the implementation, so that the calls
// start together. A round's calls should take long enough to overlap (a
// large input, or a batch of small ones). The first counterexample (or
// error) a lane returns stops both after the round; it is returned with
// the round and lane in its Args. Calls under the lanes' configurations
// count MechOverlap for their functions. A Serial run, or one with the
// NoOverlap knob set, runs the lanes one after the other, not together.
func (r *Run) Overlap(rounds int, newLane func(cfg *Config) func(lane, round int, wait func()) error) error {
	together := !r.cfg.serial && !contractknob.NoOverlap.Load()
	b := newBarrier(overlapLanes)
	errs := make([]error, overlapLanes)
	var failed sync.Once
	stop := make(chan struct{})
	var wg sync.WaitGroup
	body := func(lane int, cfg *Config, step func(lane, round int, wait func()) error) {
		for round := range rounds {
			select {
			case <-stop:
				b.leave()
				return
			default:
			}
			wait := func() {}
			if together {
				wait = b.wait
			}
			if err := withFaultPanics(func() error { return stepSafely(step, lane, round, wait) }); err != nil {
				errs[lane] = overlapError(err, lane, round)
				failed.Do(func() { close(stop) })
				b.leave()
				return
			}
		}
		b.leave()
	}
	cfgs := make([]*Config, overlapLanes)
	steps := make([]func(lane, round int, wait func()) error, overlapLanes)
	for lane := range overlapLanes {
		cfgs[lane] = r.cfg.forOverlap()
		steps[lane] = newLane(cfgs[lane])
	}
	if !together {
		for lane := range overlapLanes {
			body(lane, cfgs[lane], steps[lane])
		}
	} else {
		for lane := range overlapLanes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body(lane, cfgs[lane], steps[lane])
			}()
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// stepSafely calls step, turning a panic that escapes it into an error
// with the stack, so that a lane's goroutine never crashes the process.
func stepSafely(step func(lane, round int, wait func()) error, lane, round int, wait func()) (err error) {
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
func (c *Config) forOverlap() *Config {
	d := *c
	d.flight, d.kept, d.role = nil, keptResults{}, roleOverlap
	return &d
}

// barrier releases its parties together: each wait returns once every
// party still taking part has called it in the same generation. A party
// that leaves no longer holds the others back.
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

func (b *barrier) release() {
	b.waiting = 0
	b.gen++
	b.cond.Broadcast()
}
