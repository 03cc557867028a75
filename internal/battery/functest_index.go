package battery

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// indexByteModel is the search for an octet eight octets a word (SWAR,
// the portable memchr), checked against bytes.IndexByte.
func indexByteModel() funcModel {
	return funcModel{name: "indexbyte",
		suite: func(bug string) equiv.Suite { return functest.New("IndexByte", bytes.IndexByte, indexByteSWAR(bug)) },
		bugs: []funcBug{
			{"sign-extended-needle",
				"ashvardanian/StringZilla#306, as PR #307 diagnosed it: the needle octet, a signed char, was sign-extended before the SWAR broadcast, so 0xBE became 0xFFFFFFFFFFFFFFBE and the multiply \"produces nonsense\"",
				"needle ≥ 0x80, present in an 8-octet word (length ≥ 8)"},
			{"no-and-not",
				"class: Bit Twiddling Hacks, \"Determine if a word has a zero byte\": v - 0x01..01 alone sets the top bit of an octet that is zero or greater than 0x80, and only & ~v removes the second kind; the first flag is then taken as the match",
				"content: an octet whose XOR with the needle is 0x81 or more, in a word before the first match (or with none)"},
			{"shift-until-zero",
				"BeRo1985/flre#83: PtrPosChar's scan of a candidate word stopped when the shifted word became zero, so a \\x00 at the end of a word (and any zero octet followed by zeros only) was never found",
				"needle 0 × content: a zero octet followed by zeros to the end of its word (length ≥ 8)"},
		}}
}

// countByteModel is the count of an octet eight octets a word (SWAR),
// checked against bytes.Count.
func countByteModel() funcModel {
	return funcModel{name: "countbyte",
		suite: func(bug string) equiv.Suite { return functest.New("CountByte", countByHand, countByteSWAR(bug)) },
		bugs: []funcBug{
			{"popcount-of-haszero",
				"BurntSushi/memchr#137: the SWAR byte count was removed because \"the bit tricks used for the scalar version of memchr only tell us whether a byte occurs within a usize, but not how many\": the borrow of a match flags the octet after it when that octet is the needle XOR 1",
				"content: the needle followed by the needle XOR 1 in one word (length ≥ 8)"},
		}}
}

// countByHand is bytes.Count for a one-octet separator.
func countByHand(s []byte, c byte) int { return bytes.Count(s, []byte{c}) }

// broadcast returns c in every octet of a word, or bug's version of it.
func broadcast(c byte, bug string) uint64 {
	if bug == "sign-extended-needle" {
		return uint64(int64(int8(c))) * lanesLow
	}
	return uint64(c) * lanesLow
}

// indexByteSWAR returns IndexByte with bug switched on: each 8-octet word
// XORed with the broadcast needle, so that a match is a zero octet, found
// by the zero-octet test (v - 0x01..01) &^ v & 0x80..80, whose lowest
// flag is exact; a candidate word is then scanned for the octet. The tail
// goes an octet at a time.
func indexByteSWAR(bug string) func([]byte, byte) int {
	return func(s []byte, c byte) int {
		rep := broadcast(c, bug)
		i := 0
		for ; i+8 <= len(s); i += 8 {
			w := binary.LittleEndian.Uint64(s[i:])
			x := w ^ rep
			t := (x - lanesLow) &^ x & lanesHigh
			if bug == "no-and-not" {
				t = (x - lanesLow) & lanesHigh
			}
			if t == 0 {
				continue
			}
			if bug != "shift-until-zero" {
				return i + bits.TrailingZeros64(t)/8
			}
			for k := 0; w != 0; k, w = k+1, w>>8 {
				if byte(w) == c {
					return i + k
				}
			}
		}
		for ; i < len(s); i++ {
			if s[i] == c {
				return i
			}
		}
		return -1
	}
}

// countByteSWAR returns the count with bug switched on: each 8-octet word
// XORed with the broadcast needle, its zero octets counted exactly by
// Hacker's Delight's test without borrows, ((x & 0x7f..7f) + 0x7f..7f) | x,
// whose top bit is set in every nonzero octet.
func countByteSWAR(bug string) func([]byte, byte) int {
	return func(s []byte, c byte) int {
		rep := broadcast(c, bug)
		n := 0
		for ; len(s) >= 8; s = s[8:] {
			x := binary.LittleEndian.Uint64(s) ^ rep
			if bug == "popcount-of-haszero" {
				n += bits.OnesCount64((x - lanesLow) &^ x & lanesHigh)
				continue
			}
			n += 8 - bits.OnesCount64(((x&lanes7f)+lanes7f|x)&lanesHigh)
		}
		for _, v := range s {
			if v == c {
				n++
			}
		}
		return n
	}
}
