// Package harness holds the functions that observe a stateful object of
// a pair through a plain function, for the prove method: what one call of
// a method changes, returned as results. It imports only the pairs'
// packages, since the prover loads it from source.
package harness

import (
	"encoding/binary"
	"math/bits"

	optutf8 "github.com/equivcheck/equivcheck/optimized/utf8valid"
	refutf8 "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// RefWrite is one Write into the reference Validator v, observed through
// everything Write changes: its results, then Close's verdict and Offset.
func RefWrite(v *refutf8.Validator, p []byte) (n int, err, closed error, offset int64) {
	n, err = v.Write(p)
	return n, err, v.Close(), v.Offset()
}

// OptWrite is RefWrite for the optimized Validator.
func OptWrite(v *optutf8.Validator, p []byte) (n int, err, closed error, offset int64) {
	n, err = v.Write(p)
	return n, err, v.Close(), v.Offset()
}

// SumLE32 is the Internet checksum's Sum as the generic kernel forms it,
// in one plain loop: initial byte-swapped, plus the little-endian 32-bit
// words of b (a last partial word zero-padded), folded with end-around
// carries, byte-swapped back. It is the "same words" formulation of the
// checksum experiment in docs/equivalence.md: against it, the kernel's
// blocks, accumulators, chunks, tail and folds are proved to larger sizes
// than against the reference, whose 16-bit big-endian words the solver
// relates to these only slowly.
func SumLE32(b []byte, initial uint16) uint16 {
	s := uint64(bits.ReverseBytes16(initial))
	for len(b) >= 4 {
		s += uint64(binary.LittleEndian.Uint32(b))
		b = b[4:]
	}
	if len(b) >= 2 {
		s += uint64(binary.LittleEndian.Uint16(b))
		b = b[2:]
	}
	if len(b) == 1 {
		s += uint64(b[0])
	}
	for s>>16 != 0 {
		s = s&0xffff + s>>16
	}
	return bits.ReverseBytes16(uint16(s))
}
