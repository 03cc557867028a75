package checksumtest_test

import (
	"fmt"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
)

// sum is a correct Sum, RFC 1071 §4.1's loop with a 64-bit accumulator.
func sum(b []byte, initial uint16) uint16 {
	acc := uint64(initial)
	for ; len(b) > 1; b = b[2:] {
		acc += uint64(b[0])<<8 | uint64(b[1])
	}
	if len(b) == 1 {
		acc += uint64(b[0]) << 8
	}
	for acc>>16 != 0 {
		acc = acc&0xffff + acc>>16
	}
	return uint16(acc)
}

// sumDropsOddByte forgets the last byte of an odd-length input.
func sumDropsOddByte(b []byte, initial uint16) uint16 {
	return sum(b[:len(b)&^1], initial)
}

// Check returns nil for a correct Sum, and the minimized counterexamples
// of a wrong one.
func ExampleCheck() {
	fmt.Println(checksumtest.Check(checksumtest.Impl{Name: "loop", Sum: sum}))

	err := checksumtest.Check(checksumtest.Impl{Sum: sumDropsOddByte})
	ce := equiv.Counterexamples(err)[0]
	fmt.Printf("%s/%s caught %s on %d byte (%s): got %s, want %s\n", ce.Pair, ce.Method, ce.Func, len(ce.Input), ce.Args, ce.Got, ce.Want)
	// Output:
	// <nil>
	// checksum/vectors caught Sum on 1 byte (initial=0x0000 align=0 cap=len+1 after an unmapped page): got 0x0000, want 0xf200
}

// CheckInput checks one input of the fuzz target: here the RFC 1071 §3
// example, with a plan that puts it 5 bytes past a 64-byte boundary.
func ExampleCheckInput() {
	rfc1071 := []byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}
	plan := []byte{5}
	fmt.Println(checksumtest.CheckInput(checksumtest.Impl{Sum: sum}, rfc1071, 0, plan))
	fmt.Println(checksumtest.CheckInput(checksumtest.Impl{Sum: sumDropsOddByte}, rfc1071[:3], 0, plan))
	// Output:
	// <nil>
	// checksum/fuzz: Sum(len=1 initial=0x0000 align=5) = 0x0000, want 0xf200; input f2 (no seed: the fuzz input reproduces it)
}

// Exclude narrows the check to what an implementation documents, and
// every Result says by how much.
func ExampleExclude() {
	evenOnly := checksumtest.Exclude("odd lengths", func(in checksumtest.Input) bool {
		return len(in.Data)%2 == 1
	})
	err := checksumtest.Check(checksumtest.Impl{Sum: sumDropsOddByte}, evenOnly,
		equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors }),
		equiv.WithReport(func(r equiv.Result) {
			if r.Skipped == "" {
				fmt.Println(r.Method, r.Checked, r.Narrowed)
			}
		}))
	fmt.Println(err)
	// Output:
	// vectors 50 [excluded "odd lengths": 42 inputs]
	// <nil>
}
