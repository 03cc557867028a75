package checksumtest

import (
	"net/netip"

	"github.com/equivcheck/equivcheck/equiv"
)

// Relax relaxes, by name, clauses of this package's API contract that are
// not RFC requirements (docs/strictness.md has the table of every check
// and where its strictness comes from), so that an implementation correct
// by the RFCs but with another API passes without Excludes written by
// hand. Every Result names the clauses relaxed and counts the inputs each
// left out. The clauses:
//
//   - "checksum-combine-offset": Combine at an odd offset (an API without
//     an offset, as gVisor's, sums as at an even one);
//   - "checksum-put-short-false": Put into fewer than 2 octets (an API
//     that panics or has no result);
//   - "checksum-pseudo-refuses-mixed": PseudoHeaderSum and VerifyUDP of
//     addresses of two families, or an invalid one;
//   - "checksum-pseudo-32-bit-length": PseudoHeaderSum of a length past
//     0xFFFF (an API with a 16-bit length);
//   - "checksum-mapped-is-ipv4": every input with an IPv4-mapped IPv6
//     address;
//   - "checksum-udp-ipv4-length-limit": VerifyUDP of an IPv4 segment past
//     0xFFFF octets;
//   - "checksum-verify-short-fails": VerifyUDP of a segment shorter than
//     its 8-octet header;
//   - "checksum-update6-refuses-zero": UpdateUDP6 of a field of 0x0000;
//   - "checksum-digest-hash-contract": a Digest's hash.Hash clauses (Sum
//     appending, Size, BlockSize, Reset, Sum(nil) owned by the caller):
//     only Write's count and Sum16 are compared.
func Relax(clauses ...string) equiv.Option {
	return equiv.Relax("checksumtest", relaxable, clauses...)
}

// relaxable maps each clause Relax knows to the inputs it decides (nil:
// the checks consult Config.Relaxed).
var relaxable = map[string]func(any) bool{
	"checksum-combine-offset":  func(in any) bool { i, ok := in.(Input); return ok && i.Func == "Combine" && i.Offset%2 != 0 },
	"checksum-put-short-false": func(in any) bool { i, ok := in.(Input); return ok && i.Func == "Put" && len(i.Data) < 2 },
	"checksum-pseudo-refuses-mixed": func(in any) bool {
		i, ok := in.(Input)
		return ok && (i.Func == "PseudoHeaderSum" || i.Func == "VerifyUDP") && !oneFamily(i.Src, i.Dst)
	},
	"checksum-pseudo-32-bit-length": func(in any) bool {
		i, ok := in.(Input)
		return ok && i.Func == "PseudoHeaderSum" && i.Length > 0xffff
	},
	"checksum-mapped-is-ipv4": func(in any) bool {
		i, ok := in.(Input)
		return ok && (i.Src.Is4In6() || i.Dst.Is4In6())
	},
	"checksum-udp-ipv4-length-limit": func(in any) bool {
		i, ok := in.(Input)
		return ok && i.Func == "VerifyUDP" && i.Src.Unmap().Is4() && len(i.Data) > 0xffff
	},
	"checksum-verify-short-fails": func(in any) bool {
		i, ok := in.(Input)
		return ok && i.Func == "VerifyUDP" && len(i.Data) < 8
	},
	"checksum-update6-refuses-zero": func(in any) bool {
		i, ok := in.(Input)
		return ok && i.Func == "UpdateUDP6" && i.Update[0] == 0
	},
	"checksum-digest-hash-contract": nil,
}

// oneFamily reports whether src and dst are valid addresses of one
// family, an IPv4-mapped address counting as IPv4.
func oneFamily(src, dst netip.Addr) bool {
	return src.IsValid() && dst.IsValid() && src.Unmap().Is4() == dst.Unmap().Is4()
}
