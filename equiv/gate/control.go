package gate

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
)

// control stops a run on -timeout or on SIGINT/SIGTERM, and says which.
type control struct {
	stop   chan struct{}
	once   sync.Once
	mu     sync.Mutex
	reason string // "timeout" or "signal"
	sigs   chan os.Signal
	timer  *time.Timer
	done   chan struct{}
}

func newControl(o *options) *control {
	c := &control{stop: make(chan struct{}), sigs: make(chan os.Signal, 1), done: make(chan struct{})}
	signal.Notify(c.sigs, os.Interrupt, syscall.SIGTERM)
	if o.timeout > 0 {
		c.timer = time.AfterFunc(o.timeout, func() { c.halt("timeout") })
	}
	go func() {
		select {
		case <-c.sigs:
			c.halt("signal")
		case <-c.done:
		}
	}()
	return c
}

// halt stops the run, once, for the reason given.
func (c *control) halt(reason string) {
	c.once.Do(func() {
		c.mu.Lock()
		c.reason = reason
		c.mu.Unlock()
		close(c.stop)
	})
}

// release undoes newControl and returns why the run was stopped ("" if it
// was not).
func (c *control) release() string {
	signal.Stop(c.sigs)
	close(c.done)
	if c.timer != nil {
		c.timer.Stop()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reason
}

// progress returns the WithProgress option for a run: a line on stderr
// every few seconds during a long method, with its rate and, once another
// variant of the same pair has run the same method (same domain, same
// count), an estimate of the time left.
func progress(o *options, stderr io.Writer, rep *report) []equiv.Option {
	if !o.verbose && !isTerminal(stderr) {
		return nil
	}
	return []equiv.Option{equiv.WithProgress(5*time.Second, func(p equiv.Progress) {
		rate := float64(p.Checked) / p.Elapsed.Seconds()
		eta := ""
		if want := rep.done[p.Pair+"/"+p.Method]; want > p.Checked && rate > 0 {
			eta = fmt.Sprintf(", about %v left", (time.Duration(float64(want-p.Checked)/rate) * time.Second).Round(time.Second))
		}
		fmt.Fprintf(stderr, "  ... %s/%s: %d checked in %v (%.0f/s%s)\n", p.Pair, p.Method, p.Checked, p.Elapsed.Round(time.Second), rate, eta)
	})}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// mine reports whether this shard runs the whole (unsplit) method that is
// unit j of the run: such units are dealt out in turn.
func (o *options) mine(j int) bool { return o.shardN <= 1 || j%o.shardN == o.shardK-1 }
