package battery

import (
	"encoding/binary"
	"encoding/hex"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// hexModel is hexadecimal decoding appended to a buffer, eight digits a
// word (SWAR), checked against encoding/hex's AppendDecode: the same
// output, the same partial output and error (InvalidByteError of the
// first bad digit, else ErrLength for an odd length).
func hexModel() funcModel {
	return funcModel{name: "hex",
		suite: func(bug string) equiv.Suite {
			return functest.New("AppendDecode", hex.AppendDecode, hexDecodeSWAR(bug), functest.Appends(0))
		},
		bugs: []funcBug{
			{"invalid-as-zero",
				"meshcore-dev/MeshCore#1818: Utils::fromHex treated invalid characters as zero-equivalent values, so \"zz\" decoded as a byte",
				"content: a non-hexadecimal octet (two octets suffice)"},
			{"digit-upper-bound",
				"wrandelshofer/FastDoubleParser#48: the SWAR test of hexadecimal digits missed a bound of the digit range, so characters from the upper half of ASCII passed as digits; here the test of c ≤ '9' is missing",
				"content: a word of eight octets ≥ '0' not all hexadecimal (length ≥ 8)"},
			{"odd-dropped",
				"bakkenbaeck/EtherealCereal#6: the decoder silently dropped the last character of an odd-length string instead of failing",
				"length: odd"},
		}}
}

// hexDecodeSWAR returns the decoder with bug switched on: while eight
// digits remain, a word is tested and converted at once (its octets'
// range tests by adds, as in lowerSWAR), four output octets a word; a
// word with a bad octet, and the tail, go a pair at a time, which finds
// the exact error.
func hexDecodeSWAR(bug string) func(dst, src []byte) ([]byte, error) {
	return func(dst, src []byte) ([]byte, error) {
		dst = slices.Grow(dst, len(src)/2)
		for ; len(src) >= 8; src = src[8:] {
			v, ok := hexWord(binary.LittleEndian.Uint64(src), bug)
			if !ok {
				break
			}
			dst = append(dst, byte(v), byte(v>>16), byte(v>>32), byte(v>>48))
		}
		for ; len(src) >= 2; src = src[2:] {
			a, ok := hexNibble(src[0], bug)
			if !ok {
				return dst, hex.InvalidByteError(src[0])
			}
			b, ok := hexNibble(src[1], bug)
			if !ok {
				return dst, hex.InvalidByteError(src[1])
			}
			dst = append(dst, a<<4|b)
		}
		if len(src) == 1 && bug != "odd-dropped" {
			if _, ok := hexNibble(src[0], bug); !ok {
				return dst, hex.InvalidByteError(src[0])
			}
			return dst, hex.ErrLength
		}
		return dst, nil
	}
}

// hexWord converts eight hexadecimal digits, loaded little-endian, into
// the four octets they spell, at the even lanes of the result; ok is false
// if an octet is not a digit.
func hexWord(w uint64, bug string) (v uint64, ok bool) {
	if w&lanesHigh != 0 {
		return 0, false
	}
	digit := (w + (0x80-'0')*lanesLow) &^ (w + (0x80-'9'-1)*lanesLow) & lanesHigh
	if bug == "digit-upper-bound" {
		digit = (w + (0x80-'0')*lanesLow) & lanesHigh
	}
	l := w | 0x20*lanesLow // 'A'..'F' folded onto 'a'..'f'
	alpha := (l + (0x80-'a')*lanesLow) &^ (l + (0x80-'f'-1)*lanesLow) & lanesHigh
	if digit|alpha != lanesHigh {
		return 0, false
	}
	nib := w&(0x0f*lanesLow) + alpha>>7*9 // '0' → 0, 'a' and 'A' → 1+9
	return (nib<<4 | nib>>8) & 0x00ff00ff00ff00ff, true
}

// hexNibble is the value of one hexadecimal digit.
func hexNibble(c byte, bug string) (byte, bool) {
	switch l := c | 0x20; {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= l && l <= 'f':
		return l - 'a' + 10, true
	}
	return 0, bug == "invalid-as-zero"
}
