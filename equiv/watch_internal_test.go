package equiv

import (
	"testing"
	"time"
)

// TestWatchdogHeldBack: a watchdog whose ticks were held back (the method's
// goroutines did not yield, as on wasm) does not count the time it did not
// see; one that ticks on time and sees the beat stand still for the call
// timeout does.
func TestWatchdogHeldBack(t *testing.T) {
	t0 := time.Unix(0, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	w := newWatchdog(10*time.Second, 5, t0)
	// Held back 33 s, with the method all but done: the beat moved.
	if w.hung(at(33000), 3671162) {
		t.Fatal("hung at the first tick after the beat moved")
	}
	// The next tick comes at once, before the method's goroutines ran.
	if w.hung(at(33065), 3671162) {
		t.Fatal("hung 65 ms after the beat moved")
	}
	// Held back again, the beat not moved: not seen, not counted.
	if w.hung(at(60000), 3671162) {
		t.Fatal("hung after a gap the watchdog did not see")
	}
	// On time, the beat standing still: hung once 10 s have been seen.
	for ms := 61000; ms < 70000; ms += 1000 {
		if w.hung(at(ms), 3671162) {
			t.Fatalf("hung at %d ms, after %v seen", ms, at(ms).Sub(at(60000)))
		}
	}
	if !w.hung(at(70000), 3671162) {
		t.Fatal("not hung after 10 s seen with the beat standing still")
	}
}
