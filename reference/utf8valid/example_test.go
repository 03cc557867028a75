package utf8valid_test

import (
	"fmt"

	"github.com/equivcheck/equivcheck/reference/utf8valid"
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

func ExampleValid() {
	fmt.Println(utf8valid.Valid([]byte("日本語")), utf8valid.Valid([]byte("\xC0\x80")))
	// Output: true false
}
