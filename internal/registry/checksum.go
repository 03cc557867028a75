package registry

import (
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/optimized/checksum"
)

// Checksum returns every variant of optimized/checksum and, last,
// "dispatch": the exported API, whose small-input fast paths belong to no
// single variant and so are checked on their own.
func Checksum() []Variant[checksumtest.Impl] {
	var vs []Variant[checksumtest.Impl]
	for _, impl := range checksum.Impls() {
		vs = append(vs, Variant[checksumtest.Impl]{Name: impl.Name, Available: impl.Available, Impl: checksumVariant(impl)})
	}
	return append(vs, Variant[checksumtest.Impl]{Name: "dispatch", Available: true, Impl: withHelpers(checksumtest.Impl{
		Name:      "dispatch",
		Sum:       checksum.Sum,
		Checksum:  checksum.Checksum,
		Update:    checksum.Update,
		New:       func() checksumtest.Digest { return checksum.New() },
		VerifyUDP: checksum.VerifyUDP,
	})})
}

// checksumVariant wires one variant: its own Sum (never the dispatcher),
// the Checksum, Digest and VerifyUDP built on that Sum, and Update and the
// other helpers (which have one variant each).
func checksumVariant(impl checksum.Impl) checksumtest.Impl {
	sum := impl.Sum
	return withHelpers(checksumtest.Impl{
		Name:      impl.Name,
		Sum:       sum,
		Checksum:  func(b []byte) uint16 { return ^sum(b, 0) },
		Update:    checksum.Update,
		New:       func() checksumtest.Digest { return impl.New() },
		VerifyUDP: impl.VerifyUDP,
	})
}

// withHelpers adds the helpers that sum no buffer, and so have one variant
// each, to i.
func withHelpers(i checksumtest.Impl) checksumtest.Impl {
	i.Combine = checksum.Combine
	i.Put = checksum.Put
	i.PseudoHeaderSum = checksum.PseudoHeaderSum
	i.FinishUDP = checksum.FinishUDP
	i.UpdateUDP = checksum.UpdateUDP
	i.UpdateUDP6 = checksum.UpdateUDP6
	return i
}
