package websockettest

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// emptyResets masks right but returns 0 from an empty call, forgetting
// the position it was given: only a sequence of calls shows it.
func emptyResets(b []byte, key [4]byte, pos int) int {
	if len(b) == 0 {
		return 0
	}
	return ref.Mask(b, key, pos)
}

// The chunking state machine catches a masker that loses the position
// between calls, and reports a minimized chunked counterexample.
func TestChunkingStateMachine(t *testing.T) {
	c := newChecker(Impl{Mask: emptyResets}, equiv.NewConfig())
	for seed := range 200 {
		var err error
		rapid.Custom(func(t *rapid.T) bool { err = c.chunking(t); return true }).Example(seed)
		if err == nil {
			continue
		}
		ce, ok := err.(*equiv.Counterexample)
		if !ok || ce.Func != "Mask (chunked)" {
			t.Fatalf("got %v, want a chunked counterexample", err)
		}
		if len(ce.Input) > 4 {
			t.Errorf("not minimized: %v", ce)
		}
		t.Logf("caught: %v", ce)
		return
	}
	t.Fatal("200 runs of the state machine missed the bug")
}

// The reference passes the state machine, and every case compares.
func TestChunkingStateMachineReference(t *testing.T) {
	c := newChecker(Impl{Mask: ref.Mask}, equiv.NewConfig())
	for seed := range 50 {
		var err error
		rapid.Custom(func(t *rapid.T) bool { err = c.chunking(t); return true }).Example(seed)
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestFailureShowsFirstDifference: a mismatch of long outputs is shown
// from just before the first octet that differs, in got and in want.
func TestFailureShowsFirstDifference(t *testing.T) {
	want := make([]byte, 4096)
	got := make([]byte, 4096)
	got[3000] = 0x5a
	for _, c := range []struct {
		a, b []byte
		at   int
	}{{got, want, 3000}, {want, want, 4096}, {want[:10], want, 10}, {[]byte{1}, []byte{2}, 0}} {
		if d := firstDiff(c.a, c.b); d != c.at {
			t.Errorf("firstDiff(%d octets, %d octets) = %d, want %d", len(c.a), len(c.b), d, c.at)
		}
	}
	s := site{fn: "Mask", payload: want, plan: plan{align: 0}}
	ce := s.failure(outcome{out: got, next: 0}, outcome{out: want, next: 0})
	if !strings.HasPrefix(ce.Got, "…(2968 bytes)…"+strings.Repeat("00", 32)+"5a") ||
		!strings.HasPrefix(ce.Want, "…(2968 bytes)…"+strings.Repeat("00", 33)) || len(ce.Got) > 200 {
		t.Errorf("failure shows got %.200q, want %.200q", ce.Got, ce.Want)
	}
}

// TestBreaksCountContract: ValidUnderlyingCounts leaves out exactly the
// readers and writers whose counts io.Reader or io.Writer forbids.
func TestBreaksCountContract(t *testing.T) {
	for kind := range numSources {
		name := sourceName(kind, 3)
		want := kind == srcNegative || kind == srcTooMany
		if got := breaksCountContract(name); got != want {
			t.Errorf("reader %q: breaksCountContract = %v, want %v", name, got, want)
		}
	}
	for kind := range numSinks {
		name := sinkName(kind, 3)
		want := kind == sinkShort || kind == sinkNegative || kind == sinkTooMany || kind == sinkZero
		if got := breaksCountContract(name); got != want {
			t.Errorf("writer %q: breaksCountContract = %v, want %v", name, got, want)
		}
	}
}
