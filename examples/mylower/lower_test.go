package mylower_test

import (
	"testing"

	"example.com/equivuser/mylower"
	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// suite checks mylower.Lower against the loop. Writes(0) declares that it
// writes its argument in place: the suite compares the buffer after the
// call, and sees a write past its end or a read-modify-write of the
// octets next to it.
var suite = functest.New("Lower", mylower.LowerBytewise, mylower.Lower, functest.Writes(0))

func TestLower(t *testing.T) { equiv.Test(t, suite) }

func FuzzLower(f *testing.F) { functest.Fuzz(f, suite) }
