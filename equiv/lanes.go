package equiv

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// splitLanes is how many goroutines run a Split method at once, each the
// units Run.Mine deals its lane (the units that pass the shard and the
// sample, dealt in turn): the method's domain divided as shards divide
// it, within one process. A two-core machine runs the longest
// enumerations in about half the time, and the implementation is called
// from two goroutines at once, on distinct inputs, throughout them (as
// the concurrent caller does for every method). It is the same number on
// every machine, so that a seed deals the same units to the same lanes
// everywhere.
const splitLanes = 2

// laneHalt unwinds a lane at the first unit Run.Mine deals it past one in
// which another lane failed.
type laneHalt struct{}

// forLane returns a configuration for one lane of a method run with c:
// c's settings and scopes (their functions called one at a time under the
// shared lock), the shared stop, progress (one report at a time) and
// watchdog beat, and an input in flight and kept results of its own.
func (c *Config) forLane(progressMu *sync.Mutex) *Config {
	d := *c
	d.flight, d.kept, d.role = nil, keptResults{}, roleLanes
	if c.progress != nil {
		d.progress = func(p Progress) {
			progressMu.Lock()
			defer progressMu.Unlock()
			c.progress(p)
		}
	}
	return &d
}

// lanes is a method running on splitLanes goroutines.
type lanes struct {
	runs []*Run
	errs []error
	at   []int         // the unit (in deal order) each failing lane failed in
	done chan struct{} // closed when every lane has returned
	left []atomic.Bool // lane k still running
	// failedAt is the earliest unit, in deal order, in which a lane
	// failed (maxUnit until one does): a lane stops at the first unit
	// past it, which could only fail later than it. So the failure
	// reported is the earliest unit's, whichever lane finds it first,
	// as on one lane: the seed reproduces it.
	failedAt atomic.Int64
}

// maxUnit is failedAt before any lane failed.
const maxUnit = 1<<63 - 1

// startLanes runs f on n lanes, lane k as runs[k] (a Run of its own,
// seeded as the method's), and returns at once; done is closed when all
// have returned. A lane that fails stops the others at the first unit
// they are dealt past its own (failedAt).
func startLanes(base *Run, n int, f func(*Run) error) *lanes {
	l := &lanes{runs: make([]*Run, n), errs: make([]error, n), at: make([]int, n), done: make(chan struct{}),
		left: make([]atomic.Bool, n)}
	l.failedAt.Store(maxUnit)
	var wg sync.WaitGroup
	var progressMu sync.Mutex
	for k := range n {
		cfg := base.cfg.forLane(&progressMu)
		if n == 1 {
			cfg.role = roleMethod
		}
		r := &Run{cfg: cfg, pair: base.pair, method: base.method,
			rng: rand.New(rand.NewPCG(base.cfg.seed, base.index)), lane: k, lanes: n, failedAt: &l.failedAt,
			start: base.start, lastProgress: base.start, index: base.index}
		l.runs[k] = r
		l.left[k].Store(true)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer l.left[k].Store(false)
			err := r.protect(func(r *Run) error { return withFaultPanics(func() error { return r.runFunc(f) }) })
			if l.errs[k] = err; err != nil {
				l.at[k] = r.passed - 1
				for {
					old := l.failedAt.Load()
					if int64(l.at[k]) >= old || l.failedAt.CompareAndSwap(old, int64(l.at[k])) {
						break
					}
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(l.done)
	}()
	return l
}

// stuck returns the configuration of a lane still running, whose input in
// flight a hang report names (the first lane's if none is).
func (l *lanes) stuck() *Config {
	for k, r := range l.runs {
		if l.left[k].Load() {
			return r.cfg
		}
	}
	return l.runs[0].cfg
}

// seen is what the lanes had counted at their last checkpoints.
func (l *lanes) seen() int64 {
	var n int64
	for _, r := range l.runs {
		n += r.seen.Load()
	}
	return n
}

// merged returns one Run holding what every lane counted and reached, and
// the lanes' errors joined: the units asked and sampled are every lane's
// (each asked about every unit), the rest the sum of the lanes'.
//
// Of the lanes' failures, the one in the earliest unit is returned (a
// failure outside units, such as a kept result found changed at the end,
// counts as the lane's last unit's).
func (l *lanes) merged() (*Run, error) {
	r := l.runs[0]
	for _, o := range l.runs[1:] {
		r.checked += o.checked
		r.owned += o.owned
		r.thinAsked += o.thinAsked
		r.thinKept += o.thinKept
		r.absorbDomain(o)
	}
	first := -1
	for k, err := range l.errs {
		if err != nil && (first < 0 || l.at[k] < l.at[first]) {
			first = k
		}
	}
	if first < 0 {
		return r, nil
	}
	return r, l.errs[first]
}

// absorbDomain adds o's sizes and classes to r's.
func (r *Run) absorbDomain(o *Run) {
	if o.sizes != nil {
		if r.sizes == nil {
			r.sizes = new(sizeHist)
		}
		r.sizes.merge(o.sizes)
	}
	for name, c := range o.classes {
		r.ReachN(name, c.Hits)
		if c.Expected {
			r.classes[name].Expected = true
		}
	}
}

// merge adds o's lengths to h's.
func (h *sizeHist) merge(o *sizeHist) {
	if o.n == 0 {
		return
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.n += o.n
	for i := range h.exact {
		h.exact[i] += o.exact[i]
	}
	for i := range h.log {
		h.log[i] += o.log[i]
	}
}
