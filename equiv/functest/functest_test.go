package functest_test

import (
	"errors"
	"hash/crc32"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crcBitwise is CRC-32C a bit at a time, as RFC 3720 §B.4 describes it.
func crcBitwise(b []byte) uint32 {
	c := ^uint32(0)
	for _, v := range b {
		c ^= uint32(v)
		for range 8 {
			c = c>>1 ^ 0x82f63b78&-(c&1)
		}
	}
	return ^c
}

func crcTable(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

func TestCRCAgrees(t *testing.T) {
	start := time.Now()
	equiv.Test(t, functest.New("Checksum", crcBitwise, crcTable))
	t.Logf("took %v", time.Since(start))
}

func TestCRCBugCaught(t *testing.T) {
	buggy := func(b []byte) uint32 {
		if len(b) > 16 && len(b)%8 == 3 {
			return crcTable(b[:len(b)-1])
		}
		return crcTable(b)
	}
	err := equiv.Check(functest.New("Checksum", crcBitwise, buggy), equiv.WithSeed(1))
	if !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("Check = %v", err)
	}
	t.Log(equiv.Counterexamples(err)[0])
}
