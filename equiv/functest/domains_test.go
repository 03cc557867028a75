package functest_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// adlerByHand is Adler-32 (RFC 1950 §8.2), both remainders taken at every
// octet.
func adlerByHand(p []byte) uint32 {
	a, b := uint32(1), uint32(0)
	for _, v := range p {
		a = (a + uint32(v)) % 65521
		b = (b + a) % 65521
	}
	return b<<16 | a
}

// adlerNMAX5803 defers the remainders over blocks of 5803 octets, the
// bound for sums that start at 1 and 0 (madler/zlib#356): B overflows in
// a second block of 0xFF octets, which random data never makes.
func adlerNMAX5803(p []byte) uint32 {
	a, b := uint32(1), uint32(0)
	for len(p) > 0 {
		n := min(len(p), 5803)
		for _, v := range p[:n] {
			a += uint32(v)
			b += a
		}
		a, b, p = a%65521, b%65521, p[n:]
	}
	return b<<16 | a
}

// surrogatesEncoded is utf8.AppendRune without its surrogate case
// (tinygo-org/tinygo#2181's encodeUTF8).
func surrogatesEncoded(p []byte, r rune) []byte {
	if 0xd800 <= r && r <= 0xdfff {
		return append(p, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
	}
	return utf8.AppendRune(p, r)
}

// TestClasses: the scale method checks each size all 0xFF as well as in
// random filler, and a rune's boundaries include the surrogates, so that
// the two bugs above, which neither random octets nor random int32
// values reach, are caught, each by the method that owns the class.
func TestClasses(t *testing.T) {
	for _, tc := range []struct {
		suite  equiv.Suite
		method string
		want   string
	}{
		{functest.New("Adler32", adlerByHand, adlerNMAX5803), equiv.MethodScale, "class=ones"},
		{functest.New("AppendRune", utf8.AppendRune, surrogatesEncoded, functest.Appends(0)), equiv.MethodVectors, "arg1=55296"},
	} {
		t.Run(tc.suite.Pair, func(t *testing.T) {
			err := equiv.Check(tc.suite, equiv.WithSeed(1), equiv.WithMethods(func(m string) bool { return m == tc.method }))
			ces := equiv.Counterexamples(err)
			if len(ces) == 0 || !strings.Contains(ces[0].Error(), tc.want) {
				t.Fatalf("Check = %v, want a counterexample with %q", err, tc.want)
			}
			t.Log(ces[0])
		})
	}
}
