//go:build !purego

package websocket

import (
	"encoding/binary"

	"golang.org/x/sys/cpu"
)

// useAVX512 and useAVX2 choose, once, the body xorKey jumps to. xorKey
// reads them: do not change them after initialization.
var useAVX2, useAVX512 = kernels(cpu.X86.HasAVX2, cpu.X86.HasAVX512F)

// kernels says which SIMD bodies a CPU with the given features may run:
// AVX2 needs AVX2; AVX-512 needs AVX512F and AVX2 too, as it hands
// payloads up to 320 octets to the AVX2 code (and uses VPBROADCASTD from
// a general register, AVX512F, and no AVX512BW instruction). It is a pure
// function of the feature bits, so that a test can try every combination
// on any machine.
func kernels(hasAVX2, hasAVX512F bool) (avx2, avx512 bool) {
	return hasAVX2, hasAVX2 && hasAVX512F
}

// kernel names the body xorKey jumps to for payloads over 128 octets with
// these flags: what dispatch selects.
func kernel(avx2, avx512 bool) string {
	switch {
	case avx512:
		return "avx512"
	case avx2:
		return "avx2"
	}
	return "generic"
}

func archImpls() []Impl {
	return []Impl{
		{Name: "avx512", Available: useAVX512, Mask: maskAVX512, MaskCopy: maskCopyAVX512},
		{Name: "avx2", Available: useAVX2, Mask: maskAVX2, MaskCopy: maskCopyAVX2},
	}
}

// maskAVX2 works like maskGeneric: the entries' straight-line short paths
// (in place, as here, Mask's disjoint pieces up to 256 octets; for a copy,
// MaskCopy's overlapping blocks up to 128), then an AVX2 loop.
func maskAVX2(b []byte, key [4]byte, pos int) int {
	return xorKeyAVX2(b, b, binary.LittleEndian.Uint32(key[:]), pos)
}

// maskCopyAVX2 works like maskCopyGeneric, with maskAVX2's code.
func maskCopyAVX2(dst, src []byte, key [4]byte, pos int) int {
	checkCopy(dst, src)
	return xorKeyAVX2(dst, src, binary.LittleEndian.Uint32(key[:]), pos)
}

// maskAVX512 works like maskGeneric, with an AVX-512 loop for payloads
// longer than 320 octets and maskAVX2's code for the others.
func maskAVX512(b []byte, key [4]byte, pos int) int {
	return xorKeyAVX512(b, b, binary.LittleEndian.Uint32(key[:]), pos)
}

// maskCopyAVX512 works like maskCopyGeneric, with maskAVX512's code.
func maskCopyAVX512(dst, src []byte, key [4]byte, pos int) int {
	checkCopy(dst, src)
	return xorKeyAVX512(dst, src, binary.LittleEndian.Uint32(key[:]), pos)
}

// xorKeyInPlace is the body of Mask: xorKey(b, b, key, pos), with one
// slice argument instead of two and no result, which Mask computes.
//
// Why it is fast, with the numbers of bench's SweepMask on a 2-core Zen 5
// (medians of 8, one interleaved run; in place, the same buffer masked
// again and again):
//
//   - Dispatching in assembly keeps Mask small enough to inline, so a call to
//     Mask is one direct call, with no Go frame in between. Calling a variant
//     through a func value costs an indirect call plus the ABIInternal-to-ABI0
//     wrapper of the assembly function, about 1.5 ns here. An assembly
//     function takes its arguments on the stack, so one slice instead of two
//     saves the caller three stores.
//   - Payloads up to 32 octets take 64-bit words and then one piece per set
//     bit of len&7, up to 256 octets 32-octet AVX2 blocks and then 16-, 8-,
//     4-, 2- and 1-octet pieces: straight-line code, up to 32 octets in the
//     entry itself, with no byte loop, no alignment work and no jump to a
//     shared path. 1 octet takes 2.1 ns (gobwas/ws 2.3), 16 octets 2.2 ns
//     (5.6), 125 octets 3.2 ns (21), 256 octets 3.9 ns (6.8); with the slice
//     passed twice and a jump to a shared short path, 1 to 32 octets took
//     0.15 to 0.7 ns more.
//   - Longer payloads run an unrolled loop of 4 blocks of 64 (AVX-512) or 32
//     (AVX2) octets whose stores are aligned to dst, with the ragged edges
//     done first: 8.0-9.1 ns at 1 KiB (gobwas/ws 14.3-16.3) and 400 ns at 64
//     KiB (600-720).
//
// The in-place benchmark also has a floor that no masking code avoids: the
// next call's loads wait for this call's stores, and are forwarded from the
// store queue only when one store holds all the octets of a load. When two
// stores of a call overlap partly, as MaskCopy's overlapping end blocks do
// (125 octets: blocks at 0, 32, 61 and 93), those loads wait for both to
// reach the cache: 4.8 ns at 125 octets, against 3.1 at 128, whose blocks do
// not overlap. Mask's short path therefore stores pieces that do not
// overlap (websocket_amd64.s, INPLACE32 and INPLACE256): 125 octets 3.2 ns,
// 5 to 31 octets 2.1-2.6 instead of 4.2-4.5, 129 to 255 octets 3.3-4.4
// instead of 4.8-5.2 (bench's SweepMask, interleaved runs, medians of 20).
// The price is a branch per piece, which a benchmark of one length always
// predicts and real traffic, with payloads of every length, may not, and a
// store per piece: 7 octets (three pieces) still take 2.24 ns against 2.00
// at 8 (one word). AVX-512 masked stores (one VMOVDQU8 for up to 64 octets)
// would need no branch, but the next call's masked load is never forwarded
// from them: 4.8-5.0 ns at every length.
//
//go:noescape
func xorKeyInPlace(b []byte, key uint32, pos int)

// xorKeyGenericInPlace is xorKeyInPlace's fallback without AVX2 for
// payloads over 32 octets, with its argument layout (and no result).
func xorKeyGenericInPlace(b []byte, key uint32, pos int) {
	xorKeyGeneric(b, b, key, pos)
}

// xorKey is the body of MaskCopy: it masks up to 32 octets itself, and
// jumps with longer payloads to the AVX2 blocks up to 128 octets and the
// AVX-512 or AVX2 loop above, or to xorKeyGeneric, as useAVX512 and
// useAVX2 say.
//
//go:noescape
func xorKey(dst, src []byte, key uint32, pos int) int

// xorKeyCopy is the body of MaskCopy: copyFault's result if a check fails,
// else xorKey's. key is the masking key as MaskCopy receives it: in memory,
// its 4 octets are the little-endian word xorKey takes.
//
//go:noescape
func xorKeyCopy(dst, src []byte, key [4]byte, pos int) int

// xorKeyAVX2 works like xorKeyGeneric, without the length check: the caller
// guarantees len(dst) >= len(src), and that dst[:len(src)] is src or does
// not overlap it. It runs the entries' short path up to 128 octets and the
// AVX2 loop above, whatever useAVX512 says.
//
//go:noescape
func xorKeyAVX2(dst, src []byte, key uint32, pos int) int

// xorKeyAVX512 works like xorKeyAVX2.
//
//go:noescape
func xorKeyAVX512(dst, src []byte, key uint32, pos int) int
