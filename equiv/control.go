package equiv

import (
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
	"time"
)

// ErrInterrupted is the error of a method that was stopped (WithStop)
// before it finished: what it compared is counted, but it did not pass.
var ErrInterrupted = errors.New("stopped before the method finished")

// WithStop makes the run stop once stop is closed: the method under way
// ends at its next checkpoint (every 1024 calls of Run.Count) with
// ErrInterrupted, and the methods after it are reported not run
// (Result.Interrupted, never passed). The release gate closes it on
// -timeout and on SIGINT or SIGTERM.
func WithStop(stop <-chan struct{}) Option { return func(c *Config) { c.stop = stop } }

// Progress is what a long method has done so far.
type Progress struct {
	Pair, Method string
	Checked      int64
	Elapsed      time.Duration
}

// WithProgress calls f, from the running method's goroutine, at most every
// interval while a method runs (at its checkpoints), so that a long method
// can show it is alive.
func WithProgress(interval time.Duration, f func(Progress)) Option {
	return func(c *Config) { c.progressEvery, c.progress = interval, f }
}

// WithShard makes this run shard k of n (1 <= k <= n) of a run split across
// machines: a method marked Split runs only the part of its domain that
// Run.Mine assigns to shard k, so that the n shards' counts add up to the
// whole; other methods run whole (the caller assigns each to one shard).
func WithShard(k, n int) Option { return func(c *Config) { c.shardK, c.shardN = k, n } }

// ParseShard parses "k/n" (1 <= k <= n).
func ParseShard(s string) (k, n int, err error) {
	if _, err := fmt.Sscanf(s, "%d/%d", &k, &n); err != nil || n < 1 || k < 1 || k > n || fmt.Sprintf("%d/%d", k, n) != s {
		return 0, 0, fmt.Errorf("shard %q: want k/n with 1 <= k <= n", s)
	}
	return k, n, nil
}

// Mine reports whether unit i of a Split method's domain belongs to this
// shard (always, when the run is not sharded). A Split method calls it on
// the index of each unit of its enumeration (an outer-loop index, say) and
// skips, without counting, the units that are not its own; every unit must
// be tested with Mine, so that the shards' counts add up to the whole.
//
// A sharded Split method that asked Mine and compared nothing (it owned no
// unit, or its units compared nothing, as the parts for functions an
// implementation leaves out do) is reported skipped on that shard, never
// passed: only the whole run can say the method compared nothing. One
// that never asked Mine compared nothing on every shard, and fails with
// ErrNothingChecked as an unsharded method does. Under WithSample, a unit
// outside the sample is nobody's.
func (r *Run) Mine(i int) bool {
	r.asked++
	mine := r.cfg.shardN <= 1 || i%r.cfg.shardN == r.cfg.shardK-1
	if r.cfg.sampled(i) {
		r.sampledUnits++
	} else {
		mine = false
	}
	if mine && r.lanes > 1 {
		if int64(r.passed) > r.failedAt.Load() {
			panic(laneHalt{}) // a failure in an earlier unit is the method's
		}
		mine = r.passed%r.lanes == r.lane
		r.passed++
	}
	if mine {
		r.owned++
		r.cfg.unit = uint64(i) + 1
	}
	return mine
}

// interrupt unwinds a method that WithStop stopped.
type interrupt struct{}

// checkpoint is called every 1024 calls of Count: it stops the method if
// the run was stopped, and reports progress when it is due.
func (r *Run) checkpoint() {
	r.seen.Store(r.checked)
	r.cfg.beat.Add(1)

	if runtime.GOARCH == "wasm" {
		// No asynchronous preemption there: let the timer or signal
		// goroutine that would close the stop channel run.
		runtime.Gosched()
	}
	select {
	case <-r.cfg.stop:
		panic(interrupt{})
	default:
	}
	if r.cfg.progress == nil {
		return
	}
	if now := time.Now(); now.Sub(r.lastProgress) >= r.cfg.progressEvery {
		r.lastProgress = now
		r.cfg.progress(Progress{Pair: r.pair, Method: r.method, Checked: r.checked, Elapsed: now.Sub(r.start)})
	}
}

// stopped reports whether the run's stop channel is closed.
func (c *Config) stopped() bool {
	select {
	case <-c.stop:
		return true
	default:
		return false
	}
}

// Iterations yields the indices of 0..n-1 that belong to this shard (all of
// them when the run is not sharded), each with a random source of its own
// seeded from the method's and the index, so that iteration i draws the
// same inputs on whichever shard runs it. A Split method's random sweeps
// use it to divide themselves across shards: the shards' iterations are
// disjoint, cover 0..n-1, and draw nothing for one another.
func (r *Run) Iterations(n int) iter.Seq2[int, *rand.Rand] {
	base := r.rng.Uint64()
	return func(yield func(int, *rand.Rand) bool) {
		for i := range n {
			if r.Mine(i) && !yield(i, rand.New(rand.NewPCG(base, uint64(i)))) {
				return
			}
		}
	}
}
