package quictest

import (
	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// Relax relaxes, by name, clauses of this package's API contract that are
// not RFC requirements (docs/strictness.md has the table of every check
// and where its strictness comes from), so that an implementation correct
// by the RFCs but with another API passes without Excludes written by
// hand. Every Result names the clauses relaxed and counts the inputs each
// left out. The clauses:
//
//   - "quic-pn-masks-truncated": DecodePacketNumber of a truncated value
//     with bits set above its 8·pnLen (a decoder that takes the wire's
//     bits only, as RFC 9000 Appendix A.3's pseudocode does, may use them);
//   - "quic-pn-panics": DecodePacketNumber of a pnLen outside 1..4 or a
//     largest in [2^62, 2^64-2] (neither comes from the wire);
//   - "quic-append-panics": AppendVarint of a value past 2^62-1;
//   - "quic-withlen-panics": AppendVarintWithLen of an n outside
//     {1, 2, 4, 8} or of a value n octets cannot hold;
//   - "quic-options-invalid-argument": ParseHeaderWith and PacketsWith
//     with option bits no option defines.
func Relax(clauses ...string) equiv.Option {
	return equiv.Relax("quictest", relaxable, clauses...)
}

// relaxable maps each clause Relax knows to the inputs it decides.
var relaxable = map[string]func(any) bool{
	"quic-pn-masks-truncated": func(in any) bool {
		i, ok := in.(Input)
		return ok && i.Func == "DecodePacketNumber" && i.PNLen >= 1 && i.PNLen <= 4 && i.Truncated>>(8*i.PNLen) != 0
	},
	"quic-pn-panics": func(in any) bool {
		i, ok := in.(Input)
		return ok && i.Func == "DecodePacketNumber" && (i.PNLen < 1 || i.PNLen > 4 || i.Largest > quic.MaxVarint && i.Largest != ^uint64(0))
	},
	"quic-append-panics": func(in any) bool {
		i, ok := in.(Input)
		return ok && i.Func == "AppendVarint" && i.Value > quic.MaxVarint
	},
	"quic-withlen-panics": func(in any) bool {
		i, ok := in.(Input)
		return ok && i.Func == "AppendVarintWithLen" && !fitsWithLen(i.Value, i.Len)
	},
	"quic-options-invalid-argument": func(in any) bool {
		i, ok := in.(Input)
		return ok && (i.Func == "ParseHeaderWith" || i.Func == "PacketsWith") && i.Options&^quic.GreaseQUICBit != 0
	},
}

// fitsWithLen reports whether n is a varint length and v fits in n octets.
func fitsWithLen(v uint64, n int) bool {
	switch n {
	case 1, 2, 4, 8:
		return v < 1<<(8*n-2)
	}
	return false
}
