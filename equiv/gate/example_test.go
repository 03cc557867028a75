package gate_test

import (
	"fmt"
	"os"

	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/gate"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// A gate of your own: in a main package, gate.Main(variants...) is the
// whole program. Run is the same, with the arguments and the output given,
// returning the exit status instead of exiting.
func ExampleRun() {
	variants := []gate.Variant{
		{Name: "mine", Suite: checksumtest.NewSuite(checksumtest.Impl{Sum: ref.Sum})},
		{Name: "neon", Suite: checksumtest.NewSuite(checksumtest.Impl{Sum: ref.Sum}), Skip: "needs arm64"},
	}
	code := gate.Run("mygate", []string{"-list"}, os.Stdout, os.Stderr, variants)
	fmt.Println("exit", code)
	code = gate.Run("mygate", []string{"-level", "extreme"}, os.Stdout, os.Stdout, variants)
	fmt.Println("exit", code)
	// Output:
	// checksum/mine available=true
	// checksum/neon available=false
	// exit 0
	// mygate: -level: unknown level "extreme" (want quick, standard or deep)
	// exit 2
}
