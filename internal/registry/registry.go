// Package registry wires every variant of each optimized package to its
// pair's conformance suite. It holds no checking logic: cmd/equivcheck, the
// fuzz targets and the optimized packages' own tests all use it, so that
// each of them checks the same set of variants in the same way.
//
// Adding a pair is one wiring file here (a function returning the pair's
// []Variant) and one line in Gate.
package registry

import (
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/gate"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	"github.com/equivcheck/equivcheck/equiv/utf8validtest"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
)

// Variant is one implementation variant of a pair: its own functions (never
// the dispatcher's, except for the variant named "dispatch", which is the
// exported API), wired as the pair's Impl.
type Variant[I any] struct {
	Name      string // "avx512", "avx2", "generic", "dispatch"
	Available bool   // false if this CPU or build cannot run it
	Impl      I
	// Note says briefly why the functions Impl leaves out are not
	// checked with this variant (gate.Variant.Note).
	Note string
}

// Gate returns every variant of every pair, for the release gate, in a
// stable order, including those not available here.
func Gate() []gate.Variant {
	return slices.Concat(
		gateVariants(Checksum(), checksumtest.NewSuite),
		gateVariants(Mask(), websockettest.NewSuite),
		gateVariants(QUIC(), quictest.NewSuite),
		gateVariants(UTF8(), utf8validtest.NewSuite),
	)
}

// Available returns the Impl of every available variant.
func Available[I any](vs []Variant[I]) []I {
	var out []I
	for _, v := range vs {
		if v.Available {
			out = append(out, v.Impl)
		}
	}
	return out
}

func gateVariants[I any](vs []Variant[I], suite func(I) equiv.Suite) []gate.Variant {
	var out []gate.Variant
	for _, v := range vs {
		g := gate.Variant{Name: v.Name, Suite: suite(v.Impl), Note: v.Note}
		if !v.Available {
			g.Skip = "not available on this CPU or build"
		}
		out = append(out, g)
	}
	return out
}
