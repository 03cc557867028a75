package battery

import (
	"encoding/binary"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// uvarintModel is the decoding of an unsigned LEB128 varint (protobuf's
// varint), unrolled for the short encodings, checked against
// encoding/binary's Uvarint: the value and length, 0 and 0 for a buffer
// that ends inside the varint, 0 and -n for one that overflows 64 bits
// at its n-th octet (at most the eleventh).
func uvarintModel() funcModel {
	return funcModel{name: "uvarint",
		suite: func(bug string) equiv.Suite { return functest.New("Uvarint", binary.Uvarint, uvarintUnrolled(bug)) },
		bugs: []funcBug{
			{"tenth-octet-unchecked",
				"tokio-rs/prost#528 (decode_varint did not check the final bits of the tenth octet), NVIDIA/cudf#23478 and grafana/wiresmith#70: a tenth octet above 1 overflows 64 bits and was accepted",
				"content: nine octets ≥ 0x80 then one in 0x02..0x7F"},
			{"overlong-accepted",
				"moonbitlang/protoc-gen-mbt#75 (returned after 10 octets with the continuation bit still set) and golang/go#41185 (Uvarint read past MaxVarintLen64): an unterminated run of ten continuation octets taken as a value",
				"content: ten or more octets ≥ 0x80 (all-0xFF of length ≥ 10)"},
			{"unterminated-accepted",
				"dermesser/integer-encoding-rs#9: when every octet of the slice had its top bit set, the decoder took the last as the terminator and silently truncated",
				"length: a buffer that ends inside the varint (one octet ≥ 0x80 suffices)"},
			{"eight-octet-limit",
				"libp2p/cpp-libp2p#40: the decoder was limited to 8 octets, while 2^64-1 takes 10, so values of 57 bits and more were refused",
				"content: eight octets ≥ 0x80 then a terminator (values ≥ 2^56)"},
			{"shift-formula",
				"sevagh/pq#113: the varint decoder's shift formula was right for one- and two-octet varints only (\"for 3+ byte values, it produced garbage results\")",
				"content: varints of three octets and more"},
		}}
}

// uvarintUnrolled returns the decoder with bug switched on: one- and
// two-octet varints (most protobuf tags and lengths) decoded without a
// loop, the rest by the loop.
func uvarintUnrolled(bug string) func([]byte) (uint64, int) {
	limit := binary.MaxVarintLen64
	if bug == "eight-octet-limit" {
		limit = 8
	}
	return func(b []byte) (uint64, int) {
		if len(b) > 0 && b[0] < 0x80 {
			return uint64(b[0]), 1
		}
		if len(b) > 1 && b[1] < 0x80 {
			return uint64(b[0]&0x7f) | uint64(b[1])<<7, 2
		}
		var x uint64
		for i, c := range b {
			if i == limit {
				if bug == "overlong-accepted" {
					return x, i
				}
				return 0, -(i + 1)
			}
			s := uint(7 * i)
			if bug == "shift-formula" {
				s = uint(7 * i * i)
			}
			if c < 0x80 {
				if i == binary.MaxVarintLen64-1 && c > 1 && bug != "tenth-octet-unchecked" {
					return 0, -(i + 1)
				}
				return x | uint64(c)<<s, i + 1
			}
			x |= uint64(c&0x7f) << s
		}
		if bug == "unterminated-accepted" && len(b) > 0 {
			return x, len(b)
		}
		return 0, 0
	}
}
