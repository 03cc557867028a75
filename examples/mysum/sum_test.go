package mysum_test

import (
	"testing"

	"example.com/equivuser/mysum"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
)

var impl = checksumtest.Impl{Name: "mysum", Sum: mysum.Sum, Checksum: mysum.Checksum}

// TestSum runs every method of the checksum suite on mysum, as subtests.
func TestSum(t *testing.T) { checksumtest.Test(t, impl) }

// FuzzSum is the differential fuzz target: one line.
func FuzzSum(f *testing.F) { checksumtest.Fuzz(f, impl) }
