package quictest

import (
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
