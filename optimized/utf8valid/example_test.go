package utf8valid_test

import (
	"fmt"

	"github.com/equivcheck/equivcheck/optimized/utf8valid"
)

// A text that arrives in two fragments, € (E2 82 AC) cut between them, and
// one with a surrogate, rejected at its second octet.
func ExampleValidator() {
	var v utf8valid.Validator
	fmt.Println(v.Write([]byte("price: \xE2\x82")))
	fmt.Println(v.Close())
	fmt.Println(v.Write([]byte("\xAC 5")))
	fmt.Println(v.Close())

	v.Reset()
	fmt.Println(v.Write([]byte("ab\xED\xA0\x80")))
	fmt.Println(v.Offset(), v.Close())
	// Output:
	// 9 <nil>
	// utf8valid: text ends inside a code point
	// 3 <nil>
	// <nil>
	// 3 utf8valid: invalid UTF-8
	// 3 utf8valid: invalid UTF-8
}

// A masked fragment of a text message (RFC 6455 §5.3), unmasked and
// validated in one pass.
func ExampleValidator_Unmask() {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	frame := []byte{0x7f, 0x9f, 0x4d, 0x51, 0x58} // "Hello", RFC 6455 §5.7
	var v utf8valid.Validator
	next, n, err := v.Unmask(frame, key, 0)
	fmt.Printf("%q %d %d %v %v\n", frame, next, n, err, v.Close())
	// Output: "Hello" 1 5 <nil> <nil>
}

func ExampleImpls() {
	for _, impl := range utf8valid.Impls() {
		if impl.Available {
			fmt.Println(impl.Name, impl.Valid([]byte("日本語")), impl.NewValidator().Close())
		}
	}
}
