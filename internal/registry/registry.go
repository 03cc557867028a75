// Package registry names the pairs that equivcheck proves equivalent and
// wires every variant of each optimized package to its conformance suite in
// package equiv. It holds no checking logic: cmd/equivcheck, the fuzz
// targets and the optimized packages' own tests all use it, so that each of
// them checks the same set of variants in the same way.
package registry

import (
	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/optimized/checksum"
	"github.com/equivcheck/equivcheck/optimized/quic"
	"github.com/equivcheck/equivcheck/optimized/websocket"
)

// Variant is one implementation variant of one pair.
type Variant struct {
	Pair      string // "checksum", …
	Name      string // "avx512", "avx2", "generic", …
	Available bool   // false if this CPU or build cannot run it
	// Check runs the pair's conformance suite on this variant.
	Check func(opts ...equiv.Option) error
}

// Variants returns every variant of every pair, in a stable order, including
// the ones not available here (Available false).
func Variants() []Variant {
	var vs []Variant
	for _, c := range ChecksumVariants() {
		vs = append(vs, Variant{Pair: "checksum", Name: c.Name, Available: c.Available,
			Check: func(opts ...equiv.Option) error { return equiv.CheckChecksum(c.Impl, opts...) }})
	}
	for _, m := range MaskVariants() {
		vs = append(vs, Variant{Pair: "websocket", Name: m.Name, Available: m.Available,
			Check: func(opts ...equiv.Option) error { return equiv.CheckMask(m.Impl, opts...) }})
	}
	for _, q := range QUICVariants() {
		vs = append(vs, Variant{Pair: "quic", Name: q.Name, Available: q.Available,
			Check: func(opts ...equiv.Option) error { return equiv.CheckQUIC(q.Impl, opts...) }})
	}
	return vs
}

// Mask is one variant of optimized/websocket wired for equiv.
type Mask struct {
	Name      string
	Available bool
	Impl      equiv.MaskImpl
}

// MaskVariants returns every variant of optimized/websocket, each with its
// own Mask and MaskCopy, and, last, "dispatch": the exported API.
func MaskVariants() []Mask {
	var ms []Mask
	for _, impl := range websocket.Impls() {
		ms = append(ms, Mask{Name: impl.Name, Available: impl.Available,
			Impl: equiv.MaskImpl{Mask: impl.Mask, MaskCopy: impl.MaskCopy}})
	}
	return append(ms, Mask{Name: "dispatch", Available: true,
		Impl: equiv.MaskImpl{Mask: websocket.Mask, MaskCopy: websocket.MaskCopy}})
}

// Checksum is one variant of optimized/checksum wired for equiv.
type Checksum struct {
	Name      string
	Available bool
	Impl      equiv.ChecksumImpl
}

// ChecksumVariants returns every variant of optimized/checksum and, last,
// "dispatch": the exported API, whose small-input fast paths belong to no
// single variant and so are checked on their own.
func ChecksumVariants() []Checksum {
	var cs []Checksum
	for _, impl := range checksum.Impls() {
		cs = append(cs, Checksum{Name: impl.Name, Available: impl.Available, Impl: ChecksumImpl(impl)})
	}
	return append(cs, Checksum{Name: "dispatch", Available: true, Impl: ChecksumDispatch()})
}

// ChecksumImpl wires one variant of optimized/checksum as an
// equiv.ChecksumImpl: its own Sum (never the dispatcher), the Checksum and
// Digest built on that Sum, and Update (which has one variant).
func ChecksumImpl(impl checksum.Impl) equiv.ChecksumImpl {
	sum := impl.Sum
	return equiv.ChecksumImpl{
		Sum:      sum,
		Checksum: func(b []byte) uint16 { return ^sum(b, 0) },
		Update:   checksum.Update,
		New:      func() equiv.ChecksumDigest { return impl.New() },
	}
}

// ChecksumDispatch wires the exported, dispatching API of optimized/checksum.
func ChecksumDispatch() equiv.ChecksumImpl {
	return equiv.ChecksumImpl{
		Sum:      checksum.Sum,
		Checksum: checksum.Checksum,
		Update:   checksum.Update,
		New:      func() equiv.ChecksumDigest { return checksum.New() },
	}
}

// QUIC is one variant of optimized/quic wired for equiv.
type QUIC struct {
	Name      string
	Available bool
	Impl      equiv.QUICImpl
}

// QUICVariants returns every variant of optimized/quic, each with its own
// functions, and, last, "dispatch": the exported API.
func QUICVariants() []QUIC {
	var qs []QUIC
	for _, impl := range quic.Impls() {
		qs = append(qs, QUIC{Name: impl.Name, Available: impl.Available, Impl: equiv.QUICImpl{
			ParseVarint:        impl.ParseVarint,
			AppendVarint:       impl.AppendVarint,
			DecodePacketNumber: impl.DecodePacketNumber,
			ParseHeader:        impl.ParseHeader,
			Packets:            impl.Packets,
		}})
	}
	return append(qs, QUIC{Name: "dispatch", Available: true, Impl: equiv.QUICImpl{
		ParseVarint:        quic.ParseVarint,
		AppendVarint:       quic.AppendVarint,
		DecodePacketNumber: quic.DecodePacketNumber,
		ParseHeader:        quic.ParseHeader,
		Packets:            quic.Packets,
	}})
}
