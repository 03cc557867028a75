package battery

import (
	"math/bits"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// onesCountModel is the population count of a 64-bit word by the
// parallel sums of Bit Twiddling Hacks ("Counting bits set, in
// parallel"), a 32-bit half at a time as VOLK's generic kernel does,
// checked against math/bits.OnesCount64.
func onesCountModel() funcModel {
	return funcModel{name: "onescount",
		suite: func(bug string) equiv.Suite {
			return functest.New("OnesCount64", bits.OnesCount64, onesCountSWAR(bug))
		},
		bugs: []funcBug{
			{"high-half-shift-31",
				"gnuradio/volk#106 (fixed by PR #107): volk_64u_popcnt_generic took its high half as (value & 0xFFFFFFFF00000000) >> 31, losing bit 63 and counting the rest one place over",
				"bit 63 set"},
			{"mask-before-add",
				"rurban/smhasher#323: Bitvec.cpp's popcount masked v >> 4 with 0xF0F0F0F before the add instead of masking the sum, keeping each octet's high nibble in the final multiply",
				"a nibble's count in an octet's high half (any value with a bit in 4..7 of an octet)"},
			{"high-half-dropped",
				"idris-lang/Idris2#2475: popCount for Bits64 counted 32 bits (popCount 2^32 returned 0)",
				"bits 32..63"},
		}}
}

// onesCountSWAR returns the population count with bug switched on: the
// two halves counted by the parallel sums (pairs, nibbles, octets, then a
// multiply that adds the octets into the top one) and added.
func onesCountSWAR(bug string) func(uint64) int {
	half := func(v uint32) int {
		v -= v >> 1 & 0x55555555
		v = v&0x33333333 + v>>2&0x33333333
		if bug == "mask-before-add" {
			v += v >> 4 & 0x0f0f0f0f
		} else {
			v = (v + v>>4) & 0x0f0f0f0f
		}
		return int(v * 0x01010101 >> 24)
	}
	return func(x uint64) int {
		hi := uint32(x >> 32)
		switch bug {
		case "high-half-shift-31":
			hi = uint32(x & 0xffffffff00000000 >> 31)
		case "high-half-dropped":
			hi = 0
		}
		return half(uint32(x)) + half(hi)
	}
}
