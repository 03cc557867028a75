package fuzz

import (
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/registry"
)

// FuzzChecksum checks, for every available variant and the dispatching API,
// Sum(data, initial) at the alignment the plan names, Checksum(data), a
// Digest fed data in the pieces the plan names, and Update on the triple the
// plan names; equiv.CheckChecksumInput decodes the plan with go-fuzz-headers.
func FuzzChecksum(f *testing.F) {
	seed(f, "checksum")
	variants := registry.ChecksumVariants()
	f.Fuzz(func(t *testing.T, data []byte, initial uint16, plan []byte) {
		for _, v := range variants {
			if !v.Available {
				continue
			}
			if err := equiv.CheckChecksumInput(v.Impl, data, initial, plan); err != nil {
				t.Errorf("variant %s: %v", v.Name, err)
			}
		}
	})
}
