package equiv

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/equivcheck/equivcheck/internal/contractknob"
)

// Serial declares an implementation that is documented as not safe for
// concurrent use: the engine's concurrent caller is not run beside its
// methods, and a method marked Lanes runs on one lane. Every Result says so. Without it, every method of a suite with
// fuzz targets runs with a second goroutine calling the implementation at
// the same time, on other inputs (see Result.Concurrent), so that shared
// mutable state (a package-level scratch buffer, a lazily built table
// without synchronization) shows as a wrong result, and as a data race
// under -race.
func Serial() Option { return func(c *Config) { c.serial = true } }

// concurrent is the caller that runs beside one method: it replays the
// suite's seed corpus, mutated, through the fuzz targets' checks (which
// build their own buffers), so that the implementation is called from two
// goroutines at once on distinct inputs.
type concurrent struct {
	quit  chan struct{}
	done  chan struct{}
	cfg   *Config
	calls atomic.Int64
	err   error
	// failed is the input the caller's err was found on, which finish
	// checks again alone.
	failed seedInput
}

// corpusOf loads the inputs the concurrent caller draws from: every seed
// of every fuzz target of s (a corpus that does not load gives none; the
// corpus method reports it).
type seedInput struct {
	target FuzzTarget
	values []any
}

func concurrentInputs(s Suite, cfg *Config) []seedInput {
	var out []seedInput
	for _, t := range s.Targets {
		entries, err := LoadCorpus(t, cfg.seedCorpus(s), nil)
		if err != nil {
			continue
		}
		for _, e := range entries {
			out = append(out, seedInput{t, e.Values})
		}
	}
	return out
}

// turnTaking is true where goroutines take turns on one thread and a
// call is never interrupted (wasm): no two calls can overlap there, so
// the concurrent caller would add nothing but time, and, since it yields
// only between its own checks, one long check of its would hold the
// method's goroutines back past the call timeout.
const turnTaking = runtime.GOARCH == "wasm"

// startConcurrent starts the concurrent caller for method i, or returns nil
// when there is nothing to call it with, Serial was given or calls cannot
// overlap (turnTaking).
func startConcurrent(inputs []seedInput, cfg *Config, i int) *concurrent {
	if len(inputs) == 0 || cfg.serial || turnTaking || contractknob.NoConcurrent.Load() {
		return nil
	}
	c := &concurrent{quit: make(chan struct{}), done: make(chan struct{}), cfg: cfg.forConcurrent()}
	rng := rand.New(rand.NewPCG(cfg.seed^0x5eed, uint64(i)))
	go func() {
		defer close(c.done)
		_ = withFaultPanics(func() error { c.loop(inputs, rng); return nil })
	}()
	return c
}

// The concurrent caller works in bursts of burst, then rests for rest:
// a quarter of a core, so that a machine whose cores run other suites (go
// test runs packages in parallel) is not slowed by half. A burst is
// thousands of calls, each overlapping the method's own.
const (
	burst = time.Millisecond
	rest  = 3 * time.Millisecond
)

// loop checks mutated corpus inputs until quit is closed or one fails.
func (c *concurrent) loop(inputs []seedInput, rng *rand.Rand) {
	pause := time.NewTimer(rest)
	defer pause.Stop()
	start := time.Now()
	for {
		if time.Since(start) >= burst {
			pause.Reset(rest)
			select {
			case <-c.quit:
				return
			case <-pause.C:
			}
			start = time.Now()
		}
		select {
		case <-c.quit:
			return
		default:
		}
		in := inputs[rng.IntN(len(inputs))]
		vals := mutate(in.values, rng)
		var ce *Counterexample
		var n int
		if p := Catch(func() { ce, n = in.target.Check(c.cfg, vals) }); p != nil {
			c.err = fmt.Errorf("the concurrent caller's check of %s panicked: %v\n%s", in.target.Name, p.Value, StackOf(p))
			return
		}
		c.calls.Add(int64(n))
		if ce != nil {
			c.err, c.failed = ce, seedInput{in.target, vals}
			return
		}
	}
}

// finish stops the caller and returns how many inputs it compared and what
// it found: nil, a Counterexample, or the Counterexample of a call of its
// own that did not return within the call timeout. After a method that was
// abandoned (stopped or hung), it waits stopGrace at most and reports
// nothing. When the run is stopped, a caller still in a call stopGrace
// later is abandoned too, and finish returns errCallerStuck.
func (c *concurrent) finish(s Suite, stop <-chan struct{}, abandoned bool) (int64, error) {
	if c == nil {
		return 0, nil
	}
	close(c.quit)
	if abandoned {
		select {
		case <-c.done:
		case <-time.After(stopGrace):
		}
		return c.calls.Load(), nil
	}
	var tick <-chan time.Time
	if d := c.cfg.callTimeout; d > 0 {
		t := time.NewTicker(d)
		defer t.Stop()
		tick = t.C
	}
	last := c.cfg.beat.Load()
	for {
		select {
		case <-c.done:
			return c.calls.Load(), c.alone()
		case <-stop:
			select {
			case <-c.done:
				return c.calls.Load(), c.alone()
			case <-time.After(stopGrace):
				return c.calls.Load(), errCallerStuck
			}
		case <-tick:
		}
		if b := c.cfg.beat.Load(); b != last {
			last = b
			continue
		}
		ce := hungCounterexample(s, c.cfg, c.cfg.callTimeout)
		ce.Args = strings.TrimSpace(ce.Args + " (in the concurrent caller)")
		return c.calls.Load(), ce
	}
}

// alone returns what the caller found, once it has stopped: the input it
// failed on is checked again, alone. If it fails so, it is an input like
// any other (one of the seed corpus, mutated) and its counterexample is
// reported as it is; if it passes, it failed only while another call of
// the implementation ran, and the counterexample says so.
func (c *concurrent) alone() error {
	ce, ok := c.err.(*Counterexample)
	if !ok {
		return c.err
	}
	if again, _ := c.failed.target.Check(c.cfg, c.failed.values); again != nil {
		return again
	}
	ce.Args = strings.TrimSpace(ce.Args + " (only while another call ran: found by the concurrent caller)")
	return ce
}

// errCallerStuck is what finish returns for a concurrent caller abandoned
// in a call after the stop.
var errCallerStuck = errors.New("the concurrent caller was in a call still running")

// mutate returns a copy of vals with its byte slices and strings changed at
// random (cut short, extended, bytes replaced), or unchanged one time in
// four.
func mutate(vals []any, rng *rand.Rand) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		switch v := v.(type) {
		case []byte:
			out[i] = mutateBytes(v, rng)
		case string:
			out[i] = string(mutateBytes([]byte(v), rng))
		default:
			out[i] = v
		}
	}
	return out
}

func mutateBytes(b []byte, rng *rand.Rand) []byte {
	b = append([]byte(nil), b...)
	switch rng.IntN(4) {
	case 0:
		return b
	case 1:
		if len(b) > 0 {
			return b[:rng.IntN(len(b)+1)]
		}
	case 2:
		for range 1 + rng.IntN(64) {
			b = append(b, byte(rng.Uint32()))
		}
		return b
	}
	for range 1 + len(b)/16 {
		if len(b) > 0 {
			b[rng.IntN(len(b))] = byte(rng.Uint32())
		}
	}
	return b
}
