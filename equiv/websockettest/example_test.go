package websockettest_test

import (
	"fmt"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
)

// maskBytes is a correct masker, one byte at a time.
func maskBytes(b []byte, key [4]byte, pos int) int {
	for i := range b {
		b[i] ^= key[(pos+i)&3]
	}
	return (pos + len(b)) & 3
}

// maskTailIgnoresPos masks 4-byte words right, but its byte tail forgets
// the starting position.
func maskTailIgnoresPos(b []byte, key [4]byte, pos int) int {
	i := 0
	for ; i+4 <= len(b); i += 4 {
		for k := range 4 {
			b[i+k] ^= key[(pos+k)&3]
		}
	}
	for ; i < len(b); i++ {
		b[i] ^= key[i&3]
	}
	return (pos + len(b)) & 3
}

// Check returns nil for a correct masker, and the minimized
// counterexamples of a wrong one.
func ExampleCheck() {
	fmt.Println(websockettest.Check(websockettest.Impl{Name: "bytes", Mask: maskBytes}))

	err := websockettest.Check(websockettest.Impl{Mask: maskTailIgnoresPos})
	ce := equiv.Counterexamples(err)[0]
	fmt.Printf("%s/%s caught %s(% x, %s): got %s, want %s\n", ce.Pair, ce.Method, ce.Func, ce.Input, ce.Args, ce.Got, ce.Want)
	// Output:
	// <nil>
	// websocket/vectors caught Mask(00, key=37fa213d pos=1 align=0 cap=len+1 after read-only octets): got 37, next 2, want fa, next 2
}

// NonNegativePos narrows the check to what a masker documents: here one
// that takes the key octet from pos%4, and so panics on most negative
// positions.
func ExampleNonNegativePos() {
	err := websockettest.Check(websockettest.Impl{Mask: gobwasLike}, equiv.WithMethods(func(m string) bool {
		return m == equiv.MethodExhaustive
	}))
	fmt.Println(equiv.Counterexamples(err)[0].Got)

	err = websockettest.Check(websockettest.Impl{Mask: gobwasLike}, websockettest.NonNegativePos(),
		equiv.WithReport(func(r equiv.Result) {
			if r.Method == equiv.MethodExhaustive {
				fmt.Println(r.Narrowed)
			}
		}))
	fmt.Println(err)
	// Output:
	// panic(runtime error: index out of range [-1])
	// [excluded "negative pos": 15384 inputs]
	// <nil>
}

// StreamOffsetPos narrows the check to the positions a stream offset
// takes, for a masker that, like gobwas/ws's Cipher on short payloads,
// indexes the key with (pos+i)%4: negative positions and those whose last
// octet's offset would pass math.MaxInt, each counted.
func ExampleStreamOffsetPos() {
	err := websockettest.Check(websockettest.Impl{Mask: cipherLike}, websockettest.StreamOffsetPos(),
		equiv.WithReport(func(r equiv.Result) {
			if r.Method == equiv.MethodExhaustive {
				fmt.Println(r.Narrowed)
			}
		}))
	fmt.Println(err)
	// Output:
	// [excluded "negative pos": 15384 inputs excluded "octet offset pos+len(b)-1 past math.MaxInt": 2298 inputs]
	// <nil>
}

// Test is what a package's own test calls, in a _test.go file:
//
//	func TestMyMask(t *testing.T) {
//		websockettest.Test(t, websockettest.Impl{Mask: mypkg.Mask, MaskCopy: mypkg.MaskCopy})
//	}
//
// and its fuzz target is one line too (see Fuzz).
func ExampleTest() {
	testMyMask := func(t *testing.T) {
		websockettest.Test(t, websockettest.Impl{Name: "bytes", Mask: maskBytes})
	}
	_ = testMyMask
}
