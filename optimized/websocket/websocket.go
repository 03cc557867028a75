// Package websocket masks WebSocket payloads as RFC 6455 §5.3 defines
// (https://www.rfc-editor.org/rfc/rfc6455#section-5.3), with SIMD on amd64
// (AVX2, AVX-512) and arm64 (NEON).
//
// It mirrors reference/websocket: same names, same signatures, same results,
// same panics.
//
// # Contract every variant keeps
//
// Every variant listed by [Impls] (maskAVX512, maskAVX2, maskNEON,
// maskGeneric and their MaskCopy twins) gives exactly the octets and return
// value of reference/websocket for every length, alignment and int pos:
//
//   - octet i of the result is octet i of the input XOR key[(pos+i)&3];
//   - the return value is (pos+len)&3, computed with wrapping int addition;
//   - it reads only src[:len(src)] (b for Mask) and writes only
//     dst[:len(src)] (b for Mask): never an octet outside the slices, even
//     when they end at an unmapped page;
//   - it does not allocate, and it keeps no state between calls;
//   - MaskCopy variants panic with the same messages as the reference when
//     len(dst) < len(src) or dst[:len(src)] and src overlap inexactly.
package websocket

import (
	"encoding/binary"
	"unsafe"
)

// Mask XORs b in place with the masking key, starting at key octet pos&3
// (RFC 6455 §5.3: j = i MOD 4; transformed-octet-i = original-octet-i XOR
// masking-key-octet-j), and returns the key position for the octet after b,
// (pos+len(b))&3.
//
// Only pos&3 matters: any int is accepted, negative and huge values included
// (pos = -1 starts at key octet 3, math.MinInt at key octet 0). Passing the
// returned position to the next call masks a payload split into fragments or
// partial reads exactly as one call over the whole payload would.
//
// Masking is its own inverse: calling Mask twice with the same key and pos
// restores b. Mask does not allocate.
func Mask(b []byte, key [4]byte, pos int) int {
	// The result is computed here, in the caller's registers once Mask
	// is inlined, rather than returned by the assembly: an assembly
	// function returns through the stack, and a caller that passes each
	// result to its next call (a stream's position, BenchmarkSweepMask's
	// loop) then waits for a store and a load, twice, per call.
	xorKeyInPlace(b, binary.LittleEndian.Uint32(key[:]), pos)
	return (pos + len(b)) & 3
}

// MaskCopy writes src XOR the masking key, starting at key octet pos&3, into
// dst[:len(src)] and returns the key position for the octet after src,
// (pos+len(src))&3, leaving src untouched; it is for writers that must not
// modify the caller's buffer. pos is treated as in [Mask].
//
// MaskCopy panics if len(dst) < len(src). dst and src may overlap only
// exactly (dst[0] and src[0] are the same element), in which case MaskCopy is
// Mask(src, key, pos); any other overlap of dst[:len(src)] and src panics.
// Both rules, and the panics, follow crypto/cipher.Stream.XORKeyStream.
// MaskCopy does not allocate.
//
// MaskCopy reads and writes each octet once, which is why it beats copy
// followed by Mask: BenchmarkMaskCopy measured 5.2 ns against 9.3 ns at 125
// octets, 8.7 ns against 22 ns at 1 KiB and 25 µs against 55 µs at 1 MiB.
//
// Its checks are made in assembly (xorKeyCopy), which returns a negative
// code for the panic: that keeps MaskCopy inlinable (cost 80 of 80,
// checked by TestInlined), so a caller makes one direct call into the
// assembly. With the checks in Go it cost 127 and was a call to a Go
// function that called the assembly: 4.2 ns against 3.3 ns now at 1 to 16
// octets, 4.3 against 3.0 at 125 (BenchmarkSweepMaskCopy, one
// interleaved run).
func MaskCopy(dst, src []byte, key [4]byte, pos int) int {
	next := xorKeyCopy(dst, src, key, pos)
	if next < 0 {
		panic(copyPanics[next&1])
	}
	return next
}

// The results of copyFault and xorKeyCopy for a failed check, and the
// panic each stands for (copyPanics[r&1]).
const (
	badShortDst = -2
	badOverlap  = -1
)

var copyPanics = [2]string{badShortDst & 1: errShortDst, badOverlap & 1: errOverlap}

// Panic messages, the same strings as reference/websocket's.
const (
	errShortDst = "websocket: MaskCopy: dst shorter than src"
	errOverlap  = "websocket: MaskCopy: invalid buffer overlap"
)

// checkCopy panics unless dst is at least as long as src and dst[:len(src)]
// is src or does not overlap it.
func checkCopy(dst, src []byte) {
	if fault := copyFault(dst, src); fault != 0 {
		panic(copyPanics[fault&1])
	}
}

// copyFault returns badShortDst if dst is shorter than src, else
// badOverlap if dst[:len(src)] and src overlap without starting at the
// same element, else 0: MaskCopy's checks, in the reference's order.
func copyFault(dst, src []byte) int {
	if len(dst) < len(src) {
		return badShortDst
	}
	if len(src) == 0 {
		return 0
	}
	d := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	s := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	n := uintptr(len(src))
	// Two ranges [d, d+n) and [s, s+n) of one length overlap inexactly
	// when their starts differ by less than n, but not by zero.
	if d != s && d-s+(n-1) < 2*n-1 {
		return badOverlap
	}
	return 0
}

// Impl is one variant of the package's functions, for tests and benchmarks.
type Impl struct {
	Name      string // "avx512", "avx2" (amd64), "neon" (arm64), "generic"
	Available bool   // whether this CPU and build can run it
	// Mask and MaskCopy are the variant's own functions, not the
	// dispatcher; they must not be called unless Available.
	Mask     func(b []byte, key [4]byte, pos int) int
	MaskCopy func(dst, src []byte, key [4]byte, pos int) int
}

// Impls returns every variant, best first, including those this CPU or
// build cannot run (with Available false). Mask and MaskCopy run the first
// available one: the assembly entries pick it with flags set once at
// initialization.
func Impls() []Impl {
	return append(archImpls(), Impl{
		Name:      "generic",
		Available: true,
		Mask:      maskGeneric,
		MaskCopy:  maskCopyGeneric,
	})
}
