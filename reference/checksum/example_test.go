package checksum_test

import (
	"fmt"

	"github.com/equivcheck/equivcheck/reference/checksum"
)

// RFC 1071 §3's numerical example: the bytes 00 01 f2 03 f4 f5 f6 f7 sum
// to ddf2, and RFC 1624 §4's update, whose result is 0x0000 (RFC 1141's
// older equation gives 0xffff).
func Example() {
	fmt.Printf("%#04x\n", checksum.Sum([]byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}, 0))
	fmt.Printf("%#04x\n", checksum.Update(0xdd2f, 0x5555, 0x3285))
	// Output:
	// 0xddf2
	// 0x0000
}
