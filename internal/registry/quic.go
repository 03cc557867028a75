package registry

import (
	"github.com/equivcheck/equivcheck/equiv/quictest"
	"github.com/equivcheck/equivcheck/optimized/quic"
)

// QUIC returns every variant of optimized/quic, each with its own
// functions, and, last, "dispatch": the exported API.
func QUIC() []Variant[quictest.Impl] {
	var vs []Variant[quictest.Impl]
	for _, impl := range quic.Impls() {
		vs = append(vs, Variant[quictest.Impl]{Name: impl.Name, Available: impl.Available, Impl: quictest.Impl{
			Name:                impl.Name,
			ParseVarint:         impl.ParseVarint,
			AppendVarint:        impl.AppendVarint,
			DecodePacketNumber:  impl.DecodePacketNumber,
			ParseHeader:         impl.ParseHeader,
			Packets:             impl.Packets,
			ParseHeaderWith:     impl.ParseHeaderWith,
			PacketsWith:         impl.PacketsWith,
			ReadVarint:          impl.ReadVarint,
			PeekVarint:          impl.PeekVarint,
			AppendVarintWithLen: impl.AppendVarintWithLen,
		}})
	}
	return append(vs, Variant[quictest.Impl]{Name: "dispatch", Available: true, Impl: quictest.Impl{
		Name:                "dispatch",
		ParseVarint:         quic.ParseVarint,
		AppendVarint:        quic.AppendVarint,
		DecodePacketNumber:  quic.DecodePacketNumber,
		ParseHeader:         quic.ParseHeader,
		Packets:             quic.Packets,
		ParseHeaderWith:     quic.ParseHeaderWith,
		PacketsWith:         quic.PacketsWith,
		ReadVarint:          quic.ReadVarint,
		PeekVarint:          quic.PeekVarint,
		AppendVarintWithLen: quic.AppendVarintWithLen,
	}})
}
