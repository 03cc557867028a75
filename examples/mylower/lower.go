// Package mylower is a user's own ASCII lower-casing in place, eight
// octets a word (SWAR): each octet's range test is two adds on the word,
// where a loop tests and branches per octet. Its tests check it against
// that loop (LowerBytewise) with a suite functest derives from the two
// functions.
package mylower

import "encoding/binary"

// Every octet's low bit, high bit and low seven bits, across a word.
const (
	lanesLow  = 0x0101010101010101
	lanesHigh = 0x8080808080808080
	lanes7f   = 0x7f7f7f7f7f7f7f7f
)

// Lower maps the ASCII letters of b to lower case, in place; every other
// octet, ASCII or not, is left as it is.
func Lower(b []byte) { lower(b, false) }

// LowerBytewise is Lower an octet at a time: the reference Lower is
// checked against.
func LowerBytewise(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

// lower is Lower; with exclusive, its range test takes the bounds 'A' and
// 'Z' as exclusive, as Bit Twiddling Hacks' hasbetween(x, m, n) does
// (m < byte < n), so that 'A' and 'Z' inside a word are left as they
// are: the planted bug its test selects.
func lower(b []byte, exclusive bool) {
	// With each octet's top bit cleared (so that no add carries into the
	// next octet), c + (0x80-'A') has its top bit set iff c >= 'A', and
	// c + (0x80-'Z'-1) iff c > 'Z'; octets that had their top bit set
	// are no letters.
	ge, gt := uint64(0x80-'A')*lanesLow, uint64(0x80-'Z'-1)*lanesLow
	if exclusive {
		ge, gt = uint64(0x80-'A'-1)*lanesLow, uint64(0x80-'Z')*lanesLow
	}
	for ; len(b) >= 8; b = b[8:] {
		w := binary.LittleEndian.Uint64(b)
		h := w & lanes7f
		upper := (h + ge) &^ (h + gt) &^ w & lanesHigh
		binary.LittleEndian.PutUint64(b, w|upper>>2) // 0x80>>2 is the case bit
	}
	LowerBytewise(b)
}
