package utf8valid

// The tables of the SIMD kernels (utf8valid_amd64.s), after Keiser and
// Lemire's lookup method, derived here from the rules of RFC 3629 §4.
//
// Every octet c of the text is checked together with the three octets
// before it, p1 (the one just before), p2 and p3. Most errors show in the
// pair (p1, c) alone. Each kind of such error is a bit of
//
//	special = lookup[0][p1>>4] & lookup[1][p1&15] & lookup[2][c>>4]
//
// and a kind can have a bit of its own only if the pairs it covers are all
// the combinations of a set of high nibbles of p1, a set of low nibbles of
// p1 and a set of high nibbles of c (then the AND of the three lookups is
// set exactly on them): lookupRules lists those sets. Eight kinds need
// eight bits, a byte per lookup.
//
// What a pair cannot tell is whether a continuation after a continuation
// is wanted: it is when p2 starts a UTF8-3 or UTF8-4 (p2 >= 0xE0) or p3 a
// UTF8-4 (p3 >= 0xF0), and an error otherwise. twoConts marks the pair, and
// the kernels compute
//
//	must = 0x80 if p2 >= 0xE0 or p3 >= 0xF0, else 0
//
// and flag c when special != must: a pair error (a bit other than
// twoConts), a second continuation nobody asked for (twoConts without
// must), or a wanted continuation that is not one (must without twoConts:
// p1 is then a continuation, or a first octet, whose own missing-
// continuation error is flagged at c as well).
//
// Two things only the end of a block can tell are left to the Go code
// around the kernels: a last octet that can start nothing (C0, C1, F5-FF;
// flagged only with the octet after it, see badLead), and a text that ends
// inside a UTF8-char (see incomplete). TestLookupModel checks all of this
// against the automaton over every text of up to four octets of a set
// that covers each nibble class.
const (
	errStray     = 1 << 0 // 0xxxxxxx 10xxxxxx: a continuation after UTF8-1
	errMissing   = 1 << 1 // 11xxxxxx 0xxxxxxx or 11xxxxxx 11xxxxxx: no continuation after a first octet
	errOverlong2 = 1 << 2 // C0-C1 80-BF: an overlong UTF8-2 (and C0, C1 never appear)
	errOverlong3 = 1 << 3 // E0 80-9F: UTF8-3 = %xE0 %xA0-BF UTF8-tail
	errSurrogate = 1 << 4 // ED A0-BF: UTF8-3 = %xED %x80-9F UTF8-tail
	errLarge8    = 1 << 5 // F0 80-8F (UTF8-4 = %xF0 %x90-BF ...) and F5-FF 80-8F (never appear)
	errLarge9B   = 1 << 6 // F4-FF 90-BF: UTF8-4 = %xF4 %x80-8F ..., and F5-FF never appear
	twoConts     = 1 << 7 // 10xxxxxx 10xxxxxx: wanted only after E0-FF two back or F0-FF three back
)

// nibbles returns the set of nibbles lo..hi, bit i standing for nibble i.
func nibbles(lo, hi int) (set uint16) {
	for n := lo; n <= hi; n++ {
		set |= 1 << n
	}
	return set
}

// lookupRules gives, for each bit of special, the sets of high nibbles of
// p1, low nibbles of p1 and high nibbles of c whose combinations it flags.
var lookupRules = []struct {
	bit           byte
	hi1, lo1, hi2 uint16
}{
	{errStray, nibbles(0x0, 0x7), nibbles(0x0, 0xF), nibbles(0x8, 0xB)},
	{errMissing, nibbles(0xC, 0xF), nibbles(0x0, 0xF), nibbles(0x0, 0x7) | nibbles(0xC, 0xF)},
	{errOverlong2, nibbles(0xC, 0xC), nibbles(0x0, 0x1), nibbles(0x8, 0xB)},
	{errOverlong3, nibbles(0xE, 0xE), nibbles(0x0, 0x0), nibbles(0x8, 0x9)},
	{errSurrogate, nibbles(0xE, 0xE), nibbles(0xD, 0xD), nibbles(0xA, 0xB)},
	{errLarge8, nibbles(0xF, 0xF), nibbles(0x0, 0x0) | nibbles(0x5, 0xF), nibbles(0x8, 0x8)},
	{errLarge9B, nibbles(0xF, 0xF), nibbles(0x4, 0xF), nibbles(0x9, 0xB)},
	{twoConts, nibbles(0x8, 0xB), nibbles(0x0, 0xF), nibbles(0x8, 0xB)},
}

// lookup holds the three tables, 16 octets each, in the order the
// assembly loads them: by the high nibble of p1, by the low nibble of p1,
// by the high nibble of c. It is built once and only read after.
var lookup = buildLookup()

func buildLookup() (t [3][16]byte) {
	for _, r := range lookupRules {
		for n := range 16 {
			for i, set := range []uint16{r.hi1, r.lo1, r.hi2} {
				if set&(1<<n) != 0 {
					t[i][n] |= r.bit
				}
			}
		}
	}
	return t
}
