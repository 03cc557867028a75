package functest_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// A table-driven CRC-32C checked against one a bit at a time: New derives
// the suite from the two functions' type, and equiv.Check runs it. The
// table's slicing drops the last octet of a long odd input, and the
// exhaustive method's grid finds it and minimizes it to the shortest.
func ExampleNew() {
	slicing := func(b []byte) uint32 {
		if len(b) > 64 && len(b)%2 == 1 {
			b = b[:len(b)-1] // the bug
		}
		return crcTable(b)
	}
	err := equiv.Check(functest.New("Checksum", crcBitwise, slicing), equiv.WithSeed(1), equiv.Serial(),
		equiv.WithMethods(func(m string) bool { return m == equiv.MethodExhaustive }))
	ce := equiv.Counterexamples(err)[0]
	fmt.Printf("%s(len=%d) = %s, want %s\n", ce.Func, len(ce.Input), ce.Got, ce.Want)
	// Output:
	// Checksum(len=65) = 0x3c8eb67, want 0xe7726c33
}

// An encoder that appends to its first argument: Appends says so, and the
// harness gives the buffer the spare capacity of the append schedule
// (exactly the octets appended, one less, one more, every value to 8), so
// that a store past the appended octets is seen, and keeps what an append
// to a nil buffer returns alive to see it change later.
func ExampleAppends() {
	suite := functest.New("AppendUvarint", binary.AppendUvarint, appendUvarintUnrolled, functest.Appends(0))
	fmt.Println(equiv.Check(suite, equiv.WithSeed(1), equiv.WithSample(equiv.ShortSample)))
	// Output:
	// <nil>
}

// A fuzz target for a pair is one line; plain "go test" replays its seeds
// (the vectors and every parameter's boundary values) and any
// counterexample written under testdata/fuzz/FuzzChecksum.
func ExampleFuzz() {
	_ = func(f *testing.F) {
		functest.Fuzz(f, functest.New("Checksum", crcBitwise, crcTable))
	}
}

// Vectors add published inputs; Values replaces a parameter's domain; an
// Exclude leaves out what an implementation documents it does not take.
func ExampleVector() {
	suite := functest.New("Checksum", crcBitwise, crcTable,
		functest.Vector([]byte("123456789"))) // RFC 3720 §B.4's check value, 0xe3069283
	var checked int64
	err := equiv.Check(suite, equiv.WithSeed(1), equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors }),
		equiv.WithReport(func(r equiv.Result) {
			if r.Method == equiv.MethodVectors {
				checked = r.Checked
			}
		}))
	fmt.Println(err, checked > 1)
	// Output:
	// <nil> true
}
