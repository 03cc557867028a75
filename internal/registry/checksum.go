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
	return append(vs, Variant[checksumtest.Impl]{Name: "dispatch", Available: true, Impl: checksumtest.Impl{
		Name:     "dispatch",
		Sum:      checksum.Sum,
		Checksum: checksum.Checksum,
		Update:   checksum.Update,
		New:      func() checksumtest.Digest { return checksum.New() },
	}})
}

// checksumVariant wires one variant: its own Sum (never the dispatcher),
// the Checksum and Digest built on that Sum, and Update (which has one
// variant).
func checksumVariant(impl checksum.Impl) checksumtest.Impl {
	sum := impl.Sum
	return checksumtest.Impl{
		Name:     impl.Name,
		Sum:      sum,
		Checksum: func(b []byte) uint16 { return ^sum(b, 0) },
		Update:   checksum.Update,
		New:      func() checksumtest.Digest { return impl.New() },
	}
}
