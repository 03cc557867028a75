package websockettest

import (
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
