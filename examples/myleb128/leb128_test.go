package myleb128_test

import (
	"encoding/binary"
	"testing"

	"example.com/equivuser/myleb128"
	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// suite checks myleb128.AppendUvarint against binary.AppendUvarint. The
// first result is the buffer appended to (Appends): the suite gives it
// room exactly, one octet short, and more, and sees a write anywhere but
// the octets appended.
var suite = functest.New("AppendUvarint", binary.AppendUvarint, myleb128.AppendUvarint, functest.Appends(0))

func TestAppendUvarint(t *testing.T) { equiv.Test(t, suite) }

func FuzzAppendUvarint(f *testing.F) { functest.Fuzz(f, suite) }
