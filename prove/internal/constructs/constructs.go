// Package constructs holds one small function per construct the
// executor supports (prove/internal/symex): the executor's tests run each
// compiled and executed on the same inputs and compare.
package constructs

// Add returns a+b, wrapping.
func Add(a, b uint8) uint8 { return a + b }

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
