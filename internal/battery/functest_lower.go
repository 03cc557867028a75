package battery

import (
	"encoding/binary"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// lowerModel is ASCII lower-casing in place, eight octets a word (SWAR),
// checked against a loop over the octets.
func lowerModel() funcModel {
	return funcModel{name: "lower",
		suite: func(bug string) equiv.Suite {
			return functest.New("LowerASCII", lowerByHand, lowerSWAR(bug), functest.Writes(0))
		},
		bugs: []funcBug{
			{"exclusive-bounds",
				"class: Bit Twiddling Hacks, \"Determine if a word has a byte between m and n\": hasbetween(x,m,n) tests m < byte < n, exclusive, so hasbetween(x,'A','Z') leaves 'A' and 'Z' out",
				"content: 'A' or 'Z' inside an 8-octet word (length ≥ 8)"},
			{"letter-column",
				"alliedmodders/sourcemod#586 (a CharToLower that sets bit 5 without the guard for non-letters, refused for that reason) and quangdang46/fast_file_search#105 (the (a|0x20)==(b|0x20) fold applied to non-letters): here the whole column 0x40..0x5F of the ASCII table is folded, '@', '[', '\\', ']', '^' and '_' with the letters",
				"content: '@', '[', '\\', ']', '^' or '_' (one octet suffices)"},
			{"latin1-table",
				"zeux/qgrep#22: kCaseFoldASCII was generated with tolower() in a CP1252 locale and folded 0xC0..0xDE too, mangling UTF-8 text, while the vectorised path folded A-Z only; here the tail's table does",
				"content: octets 0xC0..0xDE (but 0xD7) in the tail (length mod 8)"},
			{"unmasked-add",
				"class: Daniel Lemire's post on SWAR (lemire.me/blog/2025/04/13/detect-control-characters-quotes-and-backslashes-efficiently-using-swar): a per-octet subtract on the whole word is exact only while no octet borrows from the next (\"you cannot rely on the other more significant byte results\"); here the range test adds to the word without first clearing each octet's top bit, so an octet ≥ 0xC1 carries into the next",
				"content: an octet ≥ 0xC1 followed in the same word by '@' (lowered by the carry) or 'Z' (left)"},
		}}
}

// lowerByHand lower-cases the ASCII letters of b in place.
func lowerByHand(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

// lowerSWAR returns the lower-casing with bug switched on: eight octets
// a word, each octet's range test done by two adds (Hacker's Delight
// §6-1, as dotat.at's 2022 tolower() adapts it): with each octet's top
// bit cleared, c + (0x80-'A') has its top bit set iff c ≥ 'A', and
// c + (0x80-'Z'-1) iff c > 'Z'; octets that had their top bit set are
// left out, and the letters get bit 5. The tail goes through a table.
func lowerSWAR(bug string) func([]byte) {
	lo, hi := uint64('A'), uint64('Z')
	switch bug {
	case "exclusive-bounds":
		lo, hi = 'A'+1, 'Z'-1
	case "letter-column":
		lo, hi = 0x40, 0x5f
	}
	ge, gt := (0x80-lo)*lanesLow, (0x80-hi-1)*lanesLow
	table := lowerTable(bug)
	return func(b []byte) {
		for ; len(b) >= 8; b = b[8:] {
			w := binary.LittleEndian.Uint64(b)
			h := w & lanes7f
			if bug == "unmasked-add" {
				h = w
			}
			upper := (h + ge) &^ (h + gt) &^ w & lanesHigh
			binary.LittleEndian.PutUint64(b, w|upper>>2)
		}
		for i, c := range b {
			b[i] = table[c]
		}
	}
}

// lowerTable is the tail's table: every octet to itself but 'A'..'Z' (or
// bug's range) to its lower case.
func lowerTable(bug string) *[256]byte {
	t := new([256]byte)
	for i := range t {
		c := byte(i)
		switch {
		case bug == "letter-column" && c&0xe0 == 0x40,
			'A' <= c && c <= 'Z',
			bug == "latin1-table" && 0xc0 <= c && c <= 0xde && c != 0xd7:
			c |= 0x20
		}
		t[i] = c
	}
	return t
}
