package equiv

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// ErrHung is matched (with errors.Is) by the Counterexample of a call into
// the implementation that did not return within the call timeout
// (WithCallTimeout): the method was abandoned with the call still running,
// and the suite's later methods were not run.
var ErrHung = errors.New("a call did not return")

// WithCallTimeout bounds how long the engine waits for the implementation
// to get on from one input to the next: a method that makes no progress
// (no new input compared or minimized) for d has a call that does not
// return, and fails with the input in flight as a Counterexample matching
// ErrHung, without waiting for it. d <= 0 waits forever. The default
// depends on the level: DefaultCallTimeout.
func WithCallTimeout(d time.Duration) Option {
	return func(c *Config) { c.callTimeout, c.callTimeoutSet = d, true }
}

// DefaultCallTimeout is the call timeout at level l when WithCallTimeout
// is not given: 10 s at Quick, 30 s at Standard, 2 minutes at Deep. The
// longest single input of this module's suites (4 MiB, at any level) takes
// milliseconds, and a few hundred milliseconds under an emulator.
func DefaultCallTimeout(l Level) time.Duration {
	switch l {
	case Quick:
		return 10 * time.Second
	case Standard:
		return 30 * time.Second
	}
	return 2 * time.Minute
}

// flight holds the input a method is comparing, for the report of a call
// that does not return. The method's goroutine writes it before it bumps
// Config.beat; the watchdog reads it only after seeing beat stand still
// for the whole timeout.
type flight[T any] struct{ v T }

// note records input as the one in flight and counts a step of progress.
func note[T any](c *Config, input T) {
	h, ok := c.flight.(*flight[T])
	if !ok {
		h = new(flight[T])
		c.flight = h
	}
	h.v = input
	if c.beat != nil { // a Config made by NewConfig; not a zero Config
		c.beat.Add(1)
	}
}

// inFlight returns the input in flight, or nil.
func (c *Config) inFlight() any {
	switch h := c.flight.(type) {
	case nil:
		return nil
	case interface{ value() any }:
		return h.value()
	}
	return nil
}

func (h *flight[T]) value() any { return h.v }

// hungCounterexample describes the input in flight when a method stopped
// making progress for d.
func hungCounterexample(s Suite, c *Config, d time.Duration) *Counterexample {
	in := c.inFlight()
	var ce *Counterexample
	if s.Describe != nil && in != nil {
		ce = s.Describe(in)
	}
	if ce == nil {
		ce = &Counterexample{Func: "?"}
		if b, ok := in.([]byte); ok {
			ce.Input = append([]byte(nil), b...)
		} else if in != nil {
			ce.Args = fmt.Sprintf("input %+v", in)
		}
	}
	ce.Got = fmt.Sprintf("no return within %v (the call is still running)", d)
	ce.Want = "a return"
	ce.Hung = true
	return ce
}

// watch waits for done, and returns "" when it is closed; or, while it is
// not, returns "stopped" once stop is closed and done has not followed
// within a grace period, or "hung" once c.beat stands still for the call
// timeout.
func watch(c *Config, done <-chan struct{}) string {
	var tick <-chan time.Time
	w := newWatchdog(c.callTimeout, c.beat.Load(), time.Now())
	if c.callTimeout > 0 {
		t := time.NewTicker(w.every)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-done:
			return ""
		case <-c.stop:
			select {
			case <-done:
				return ""
			case <-time.After(stopGrace):
				return "stopped"
			}
		case <-tick:
			// The time of the tick's receipt, not the tick's: a tick
			// received late carries the time it was due.
			if w.hung(time.Now(), c.beat.Load()) {
				return "hung"
			}
		}
	}
}

// watchdog decides, from the beat it reads at each of its ticks, when a
// method has made no progress for the call timeout d.
type watchdog struct {
	d, every time.Duration
	last     uint64    // the beat when it last moved
	since    time.Time // when the watchdog saw it move (or began)
	seen     time.Time // the watchdog's last tick
}

func newWatchdog(d time.Duration, beat uint64, now time.Time) *watchdog {
	return &watchdog{d: d, every: min(max(d/8, 10*time.Millisecond), time.Second), last: beat, since: now, seen: now}
}

// hung reports whether, at a tick at now with the beat at beat, the beat
// has stood still for d. Time the watchdog did not see go by (its ticks
// held back for several periods) does not count: where goroutines take
// turns (wasm), it runs only when the method's goroutines yield, and the
// whole of a long method may pass between two of its ticks; the next tick,
// due a period after the held-back one, then comes at once.
func (w *watchdog) hung(now time.Time, beat uint64) bool {
	heldBack := now.Sub(w.seen) > 4*w.every
	w.seen = now
	if beat != w.last || heldBack {
		w.last, w.since = beat, now
		return false
	}
	return now.Sub(w.since) >= w.d
}

// stopGrace is how long a stopped method may take to reach its next
// checkpoint before it is abandoned: one stuck in a call never does.
const stopGrace = time.Second

// progressBeat is the watchdog's view of progress: bumped by every input a
// suite checks (Excluded), minimizes (OutOfScope) or counts (a checkpoint).
type progressBeat = atomic.Uint64
