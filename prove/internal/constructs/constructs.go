// Package constructs holds small functions, each exercising constructs
// the executor (prove/internal/symex) supports, and a few it does not:
// the executor's tests run each compiled and executed on the same random
// inputs and compare (prove/internal/differential), and check that the
// unsupported ones stop the executor naming the construct and its line.
// MaskOff and its kin are planted bugs for the prove method's own tests.
package constructs

// MaskOff is a masking function with a bug: the key position of a
// payload longer than 12 octets restarts at its 9th.
func MaskOff(b []byte, key [4]byte, pos int) int {
	for i := range b {
		j := pos + i
		if len(b) > 12 && i >= 8 {
			j -= 8 + 1
		}
		b[i] ^= key[j&3]
	}
	return (pos + len(b)) & 3
}
