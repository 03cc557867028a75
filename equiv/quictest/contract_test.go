package quictest

import (
	"reflect"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// TestContracts: every function of Impl has one contract, and a quick run
// (a sample of its long methods) applies to each every mechanism its
// contract calls for.
func TestContracts(t *testing.T) {
	impl := Impl{ParseVarint: quic.ParseVarint, AppendVarint: quic.AppendVarint, DecodePacketNumber: quic.DecodePacketNumber,
		ParseHeader: quic.ParseHeader, Packets: quic.Packets, ParseHeaderWith: quic.ParseHeaderWith, PacketsWith: quic.PacketsWith,
		ReadVarint: quic.ReadVarint, PeekVarint: quic.PeekVarint, AppendVarintWithLen: quic.AppendVarintWithLen}
	var results []equiv.Result
	err := Check(impl, equiv.WithSeed(1), equiv.WithSample(equiv.ShortSample),
		equiv.WithReport(func(r equiv.Result) { results = append(results, r) }))
	if err != nil {
		t.Fatal(err)
	}
	if err := equiv.CheckContracts(Impl{}, contracts, results); err != nil {
		t.Error(err)
	}
}

// TestStreamRunShowsState: every field of streamState, which streamAt
// compares, shows in a run's text, so that no counterexample prints the
// same got and want (a nested read gone wrong once did not).
func TestStreamRunShowsState(t *testing.T) {
	states := []streamState{{consumed: 1}, {calls: 1}, {asked: [4]int{0, 0, 0, 1}}, {asked: [4]int{1}, more: true}, {nestedWrong: true}}
	if n := reflect.TypeFor[streamState]().NumField(); n != 5 {
		t.Fatalf("streamState has %d fields; give each one a case here", n)
	}
	zero := streamRun{}.String()
	for _, st := range states {
		if s := (streamRun{state: st}).String(); s == zero {
			t.Errorf("state %+v prints as the zero state: %q", st, s)
		}
	}
	if a, b := (streamRun{state: streamState{asked: [4]int{1}}}).String(), (streamRun{state: streamState{asked: [4]int{1}, more: true}}).String(); a == b {
		t.Errorf("more does not show: %q", a)
	}
}
