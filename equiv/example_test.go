package equiv_test

import (
	"errors"
	"fmt"
	"hash/adler32"

	"github.com/equivcheck/equivcheck/equiv"
)

// adlerSuite checks an Adler-32 implementation against hash/adler32 on
// every input of up to two bytes.
func adlerSuite(impl func([]byte) uint32) equiv.Suite {
	return equiv.Suite{Pair: "adler32", Methods: []equiv.Method{{
		Name: equiv.MethodExhaustive,
		Func: func(r *equiv.Run) error {
			for n := range 1 << 16 {
				b := []byte{byte(n), byte(n >> 8)}
				if got, want := impl(b), adler32.Checksum(b); got != want {
					return r.Fail(&equiv.Counterexample{Func: "Checksum", Input: b,
						Got: fmt.Sprintf("%#x", got), Want: fmt.Sprintf("%#x", want)})
				}
				r.Count(1)
			}
			return nil
		},
	}}}
}

// A suite for a pair of your own: a Suite literal whose methods count and
// report through the Run.
func Example_ownSuite() {
	good := func(b []byte) uint32 { return adler32.Checksum(b) }
	wrong := func(b []byte) uint32 { return adler32.Checksum(b) + uint32(b[1]>>7) }

	fmt.Println(equiv.Check(adlerSuite(good), equiv.WithReport(func(r equiv.Result) {
		fmt.Println(r.Method, r.Checked)
	})))
	err := equiv.Check(adlerSuite(wrong), equiv.WithSeed(1))
	fmt.Println(errors.Is(err, equiv.ErrMismatch), equiv.Counterexamples(err)[0].Input)
	// Output:
	// exhaustive 65536
	// <nil>
	// true [0 128]
}
