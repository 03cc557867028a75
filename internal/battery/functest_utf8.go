package battery

import (
	"unicode/utf8"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// appendRuneModel is the UTF-8 encoding of a rune (RFC 3629 §3) appended
// to a buffer, written by hand, checked against unicode/utf8's AppendRune:
// a rune that is negative, a surrogate or past U+10FFFF is encoded as
// U+FFFD.
func appendRuneModel() funcModel {
	return funcModel{name: "appendrune",
		suite: func(bug string) equiv.Suite {
			return functest.New("AppendRune", utf8.AppendRune, appendRuneByHand(bug), functest.Appends(0))
		},
		bugs: []funcBug{
			{"lead-octet-c0",
				"SimonSapin/wtf-8#8: the encoder of section 6.1 gave U+0800 as C0 A0 80 and U+10000 as C0 90 80 80, the two-octet lead byte on the longer forms",
				"rune ≥ 0x800"},
			{"negative-as-ascii",
				"golang/go#43254: unicode.Is and bytes.Buffer.WriteRune got negative runes wrong; here, as a signed comparison with utf8.RuneSelf does, a negative rune is taken for ASCII and written as one octet",
				"rune < 0"},
			{"no-upper-bound",
				"vlang/v#26881 (review: after the < 0x10000 test every rune was encoded in four octets, 0x110000 included) and duncanc/icu4lua#5 (codePoint > 0x110000 where >= was meant)",
				"rune > 0x10FFFF"},
			{"surrogates-encoded",
				"tinygo-org/tinygo#2181: the runtime's encodeUTF8 encoded U+D800..U+DFFF as three octets where Go gives U+FFFD (the fix added the surrogate case)",
				"rune in 0xD800..0xDFFF"},
		}}
}

// appendRuneByHand returns the encoder with bug switched on: the length
// by the rune's range, the octets laid out as RFC 3629 §3's table shows.
func appendRuneByHand(bug string) func([]byte, rune) []byte {
	lead3, lead4 := byte(0xe0), byte(0xf0)
	if bug == "lead-octet-c0" {
		lead3, lead4 = 0xc0, 0xc0
	}
	return func(p []byte, r rune) []byte {
		u := uint32(r)
		if bug == "negative-as-ascii" && r < 0 {
			return append(p, byte(r))
		}
		switch {
		case u < 0x80:
			return append(p, byte(r))
		case u < 0x800:
			return append(p, 0xc0|byte(r>>6), 0x80|byte(r)&0x3f)
		case 0xd800 <= u && u <= 0xdfff && bug != "surrogates-encoded",
			u > utf8.MaxRune && bug != "no-upper-bound":
			return append(p, 0xef, 0xbf, 0xbd)
		case u < 0x10000:
			return append(p, lead3|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
		}
		return append(p, lead4|byte(r>>18), 0x80|byte(r>>12)&0x3f, 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
	}
}
