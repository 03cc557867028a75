// Package websocket is the reference for WebSocket payload masking, RFC 6455 §5.3
// (https://www.rfc-editor.org/rfc/rfc6455#section-5.3).
//
// It is written to be read beside the RFC, one octet at a time, and serves as
// the oracle that the optimized package is tested against.
package websocket

import "reflect"

// Mask XORs b in place with the masking key, starting at key octet pos&3, and
// returns the key position for the octet after b, (pos+len(b))&3.
//
// Only pos&3 matters: any int is accepted, negative and huge values
// included (pos = -1 starts at key octet 3, math.MaxInt at key octet 3,
// math.MinInt at key octet 0). Because the returned position feeds the next
// call, a payload masked in several calls (fragments, partial reads) ends up
// with the same octets as when it is masked in one call.
//
// Masking is its own inverse: Mask(b, key, pos) twice restores b.
func Mask(b []byte, key [4]byte, pos int) int {
	// RFC 6455 §5.3 (https://www.rfc-editor.org/rfc/rfc6455#section-5.3):
	//
	//   Octet i of the transformed data ("transformed-octet-i") is the XOR of
	//   octet i of the original data ("original-octet-i") with octet at index
	//   i modulo 4 of the masking key ("masking-key-octet-j"):
	//
	//     j                   = i MOD 4
	//     transformed-octet-i = original-octet-i XOR masking-key-octet-j
	//
	// Here octet 0 of b is octet pos of the payload, so i = pos + index.
	// pos&3 is pos MOD 4 for every int, negative ones included (two's
	// complement), and (pos+index)&3 stays right even when pos+index wraps.
	for index := range b {
		i := pos + index
		j := i & 3 // j = i MOD 4
		b[index] ^= key[j]
	}
	return (pos + len(b)) & 3
}

// Panic messages shared with the optimized package, so that a conformance
// suite can check that both panicked for the same reason.
const (
	errShortDst = "websocket: MaskCopy: dst shorter than src"
	errOverlap  = "websocket: MaskCopy: invalid buffer overlap"
)

// MaskCopy writes src XOR the masking key, starting at key octet pos&3, into
// dst[:len(src)] and returns the key position for the octet after src,
// (pos+len(src))&3. It leaves src untouched, for writers that must not modify
// the caller's buffer. pos is treated as in [Mask].
//
// MaskCopy panics if len(dst) < len(src). dst and src may overlap only
// exactly (dst[0] and src[0] are the same element); then MaskCopy is Mask(src,
// key, pos). Any other overlap panics. Both rules follow
// crypto/cipher.Stream.XORKeyStream.
func MaskCopy(dst, src []byte, key [4]byte, pos int) int {
	if len(dst) < len(src) {
		panic(errShortDst)
	}
	dst = dst[:len(src)]
	if inexactOverlap(dst, src) {
		panic(errOverlap)
	}
	// RFC 6455 §5.3, as in Mask, with transformed-octet-i stored in dst
	// instead of over original-octet-i.
	for index := range src {
		i := pos + index
		j := i & 3 // j = i MOD 4
		dst[index] = src[index] ^ key[j]
	}
	return (pos + len(src)) & 3
}

// inexactOverlap reports whether the equal-length, non-empty slices x and y
// share memory without starting at the same element. reflect gives the
// addresses without importing unsafe.
func inexactOverlap(x, y []byte) bool {
	if len(x) == 0 || &x[0] == &y[0] {
		return false
	}
	px := reflect.ValueOf(x).Pointer()
	py := reflect.ValueOf(y).Pointer()
	n := uintptr(len(x))
	return px < py+n && py < px+n
}
