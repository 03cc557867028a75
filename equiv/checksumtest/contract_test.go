package checksumtest

import (
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// TestContracts: every function of Impl and method of Digest has one
// contract, and a quick run (a sample of its long methods) applies to
// each every mechanism its contract calls for.
func TestContracts(t *testing.T) {
	impl := Impl{Sum: ref.Sum, Checksum: ref.Checksum, Update: ref.Update, New: func() Digest { return ref.New() },
		Combine: ref.Combine, Put: ref.Put, PseudoHeaderSum: ref.PseudoHeaderSum, FinishUDP: ref.FinishUDP,
		UpdateUDP: ref.UpdateUDP, UpdateUDP6: ref.UpdateUDP6, VerifyUDP: ref.VerifyUDP}
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
