package utf8validtest_test

import (
	"bytes"
	"fmt"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/utf8validtest"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// A validator that lets surrogates through (U+D800..U+DFFF, which RFC 3629
// excludes) is caught by the vectors, on the shortest text that shows it.
func ExampleCheck() {
	lax := func(b []byte) bool {
		return ref.Valid(bytes.ReplaceAll(b, []byte{0xed, 0xa0}, []byte{0xed, 0x9f}))
	}
	err := utf8validtest.Check(utf8validtest.Impl{Valid: lax}, equiv.WithSeed(1),
		equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors }))
	for _, ce := range equiv.Counterexamples(err) {
		fmt.Printf("%s(%x) = %s, want %s\n", ce.Func, ce.Input, ce.Got, ce.Want)
	}
	// Output:
	// Valid(eda080) = true, want false
}
