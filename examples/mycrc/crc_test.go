package mycrc_test

import (
	"testing"

	"example.com/equivuser/mycrc"
	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// suite is the whole suite of mycrc.Checksum against the definition:
// vectors (the check string of RFC 3720 §B.4's CRC catalogue, and every
// parameter's boundaries), exhaustive, guard pages, properties, scale
// and the corpus, each input placed as the derived contract says.
var suite = functest.New("CRC32C", mycrc.ChecksumBitwise, mycrc.Checksum, functest.Vector([]byte("123456789")))

func TestChecksum(t *testing.T) { equiv.Test(t, suite) }

func FuzzChecksum(f *testing.F) { functest.Fuzz(f, suite) }
