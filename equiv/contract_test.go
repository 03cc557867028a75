package equiv_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
)

// hangsOn returns an implementation of the toy pair that never returns on
// inputs of length n (the hung goroutine spins until the test binary
// exits).
func hangsOn(n int) func([]byte) []byte {
	return func(b []byte) []byte {
		if len(b) == n {
			for {
				time.Sleep(time.Hour)
			}
		}
		return reverse(b)
	}
}

// TestHangIsCounterexample: a call that never returns fails its method
// within the call timeout, with the input in flight, and the suite's
// later methods are not run.
func TestHangIsCounterexample(t *testing.T) {
	start := time.Now()
	rs, err := results(toySuite(hangsOn(2)), equiv.WithSeed(3), equiv.WithCallTimeout(200*time.Millisecond))
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Check took %v with a 200ms call timeout", took)
	}
	if !errors.Is(err, equiv.ErrHung) || !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("Check = %v, want ErrHung", err)
	}
	ces := equiv.Counterexamples(err)
	if len(ces) != 1 || len(ces[0].Input) != 2 || !strings.Contains(ces[0].Got, "no return within 200ms") {
		t.Fatalf("counterexamples %v, want the 2-byte input in flight", ces)
	}
	if len(rs) < 2 || !rs[0].Hung || !strings.HasPrefix(rs[1].Skipped, "not run: ") {
		t.Errorf("results %+v: want the first hung and the next not run", rs)
	}
}

// TestStopWhileStuck: a stop closes the run even while a call is stuck.
func TestStopWhileStuck(t *testing.T) {
	stop := make(chan struct{})
	time.AfterFunc(100*time.Millisecond, func() { close(stop) })
	start := time.Now()
	rs, err := results(toySuite(hangsOn(2)), equiv.WithStop(stop), equiv.WithCallTimeout(0))
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Check took %v after a stop at 100ms", took)
	}
	if !errors.Is(err, equiv.ErrInterrupted) || len(rs) == 0 || !rs[0].Interrupted {
		t.Fatalf("Check = %v, %+v; want interrupted", err, rs)
	}
}

// TestStopWhileCallerStuck: a stop while the concurrent caller, not the
// method, is stuck in a call interrupts the method promptly and says that
// a call is still running.
func TestStopWhileCallerStuck(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("wasm runs one goroutine at a time: there is no concurrent caller")
	}
	stop := make(chan struct{})
	var once sync.Once
	var calls atomic.Int64
	impl := func(b []byte) []byte {
		if len(b) >= 3 { // never in the exhaustive method's 0 to 2 bytes
			once.Do(func() { close(stop) })
			for {
				time.Sleep(time.Hour)
			}
		}
		if calls.Add(1) < 64 {
			// Outlast the caller's first call; later calls are quick, so
			// that the method meets its next checkpoint within the grace
			// period even on a loaded machine, where a short sleep lasts
			// a millisecond or more.
			time.Sleep(10 * time.Microsecond)
		}
		return reverse(b)
	}
	start := time.Now()
	rs, err := results(toySuite(impl), equiv.WithSeed(1), only(equiv.MethodExhaustive), equiv.WithStop(stop), equiv.WithCallTimeout(0))
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Check took %v after the stop", took)
	}
	if !errors.Is(err, equiv.ErrInterrupted) || len(rs) == 0 || !rs[0].Interrupted {
		t.Fatalf("Check = %v, %+v; want interrupted", err, rs)
	}
	if !strings.Contains(rs[0].Err.Error(), "concurrent caller in a call still running") {
		t.Errorf("result %v; want the stuck concurrent caller named", rs[0].Err)
	}
}

// TestConcurrentCallerCatchesSharedState: an implementation that reverses
// into a package-level scratch buffer is right when called alone, and
// caught only because the concurrent caller calls it at the same time.
func TestConcurrentCallerCatchesSharedState(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector reports the shared buffer itself, as a test failure")
	}
	if runtime.GOARCH == "wasm" {
		t.Skip("wasm runs one goroutine at a time and never preempts one inside a call")
	}
	var scratch [64]byte
	shared := func(b []byte) []byte {
		s := scratch[:len(b)]
		copy(s, b)
		for i := 0; i < 2000; i++ { // widen the window
			s[i%len(s)] ^= zero
		}
		out := make([]byte, len(b))
		for i := range s {
			out[len(s)-1-i] = s[i]
		}
		return out
	}
	long := func(b []byte) []byte {
		if len(b) == 0 || len(b) > 64 {
			return reverse(b)
		}
		return shared(b)
	}
	err := equiv.Check(toySuite(long), equiv.WithSeed(1), only(equiv.MethodExhaustive))
	if !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("Check = %v, want the shared buffer caught", err)
	}
	if err := equiv.Check(toySuite(long), equiv.WithSeed(1), only(equiv.MethodExhaustive), equiv.Serial()); err != nil {
		t.Fatalf("Serial: %v (alone it is right)", err)
	}
}

// TestConcurrentCallsCounted: the concurrent caller's comparisons are
// reported apart from Checked; Serial turns it off and says so.
func TestConcurrentCallsCounted(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("wasm runs one goroutine at a time: there is no concurrent caller")
	}
	rs, err := results(toySuite(reverse), equiv.WithSeed(1), only(equiv.MethodExhaustive))
	if err != nil || rs[0].Concurrent == 0 {
		t.Fatalf("%v, %+v: want concurrent calls", err, rs[0])
	}
	rs, _ = results(toySuite(reverse), equiv.WithSeed(1), only(equiv.MethodExhaustive), equiv.Serial())
	if rs[0].Concurrent != 0 || !strings.Contains(strings.Join(rs[0].Narrowed, ";"), "Serial") {
		t.Errorf("Serial: %+v", rs[0])
	}
}

// TestKeep: a result that changes after later calls is reported by the
// next Keep, and at the method's end.
func TestKeep(t *testing.T) {
	var shared [4]byte
	appendStatic := func(v byte) []byte { shared[0] = v; return shared[:1] }
	fresh := func(v byte) []byte { return []byte{v} }
	for _, tc := range []struct {
		name  string
		f     func(byte) []byte
		fails bool
	}{{"static", appendStatic, true}, {"fresh", fresh, false}} {
		s := equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "keep", Func: func(r *equiv.Run) error {
			for v := range 3 {
				got := tc.f(byte(v))
				fail := func(now []byte) *equiv.Counterexample {
					return &equiv.Counterexample{Func: "Append", Input: []byte{byte(v)}, Got: fmt.Sprintf("%x later", now), Want: fmt.Sprintf("%x", []byte{byte(v)})}
				}
				if ce := r.Config().Keep(got, fail); ce != nil {
					return r.Fail(ce)
				}
				r.Count(1)
			}
			return nil
		}}}}
		err := equiv.Check(s)
		if got := errors.Is(err, equiv.ErrMismatch); got != tc.fails {
			t.Errorf("%s: Check = %v", tc.name, err)
		}
	}
}

// TestSuitesInParallelWithRO: several suites place read-only inputs at
// once; each sees only its own faults.
func TestSuitesInParallelWithRO(t *testing.T) {
	if why := equiv.ReadOnlySkip(); why != "" {
		t.Skip(why, "(and the write below changes nothing a copy could show)")
	}
	writes := func(b []byte) []byte {
		if len(b) == 3 {
			b[0] ^= zero // a write that changes nothing: still a broken contract
		}
		return reverse(b)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			impl := reverse
			if i%2 == 1 {
				impl = writes
			}
			err := equiv.Check(roSuite(impl), equiv.WithSeed(uint64(i+1)))
			if (err != nil) != (i%2 == 1) {
				t.Errorf("suite %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
}

// roSuite checks the toy pair with every input on a Buffer's read-only
// Input.
func roSuite(impl func([]byte) []byte) equiv.Suite {
	return equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "ro", Func: func(r *equiv.Run) error {
		var buf equiv.Buffer
		for n := range 8 {
			data := bytes.Repeat([]byte{byte(n)}, n)
			b := buf.Input(data, n)
			var got []byte
			p := equiv.Catch(func() { got = impl(b) })
			if p != nil || !bytes.Equal(got, refReverse(data)) || !buf.Intact() {
				return r.Fail(&equiv.Counterexample{Func: "Reverse", Input: data, Got: fmt.Sprint(got, p), Want: "reversed"})
			}
			r.Count(1)
		}
		return nil
	}}}}
}

// zero is a byte the compiler cannot fold: XORed into memory, it writes
// without changing anything.
var zero byte
