package fuzz

import (
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/registry"
)

// FuzzMask checks, for every available variant and the dispatching API,
// Mask(payload, key, pos) at the alignment the plan names, the same payload
// masked in the chunks the plan names, and MaskCopy (separate destination
// and in place); equiv.CheckMaskInput decodes the plan with go-fuzz-headers.
// The key's octets are key's big-endian bytes.
func FuzzMask(f *testing.F) {
	seed(f, "websocket")
	variants := registry.MaskVariants()
	f.Fuzz(func(t *testing.T, payload []byte, key uint32, pos int, plan []byte) {
		for _, v := range variants {
			if !v.Available {
				continue
			}
			if err := equiv.CheckMaskInput(v.Impl, payload, key, pos, plan); err != nil {
				t.Errorf("variant %s: %v", v.Name, err)
			}
		}
	})
}
