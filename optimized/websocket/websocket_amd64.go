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

// maskAVX2 works like maskGeneric: xorKeyShort up to 128 octets, then an
// AVX2 loop.
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

// xorKey is the body of Mask and MaskCopy: it jumps to xorKeyShort for up
// to 128 octets, else to xorKeyAVX512, xorKeyAVX2 or xorKeyGeneric as
// useAVX512 and useAVX2 say.
//
// Why it is fast, with the numbers of bench/websocket_test.go's
// BenchmarkMask on a 2-core Zen 5 (medians of 6; in place, the same buffer
// masked again and again):
//
//   - Dispatching in assembly keeps Mask small enough to inline, so a call to
//     Mask is one direct call, with no Go frame in between. Calling a variant
//     through a func value costs an indirect call plus the ABIInternal-to-ABI0
//     wrapper of the assembly function, about 1.5 ns here.
//   - Payloads up to 32 octets take 1 to 4 general-purpose words, up to 128
//     two or four AVX2 blocks: straight-line code, no byte loop, no alignment
//     work. 2 octets take 2.7 ns (gobwas/ws 3.1), 16 octets 2.8 ns (5.8), 125
//     octets 5.1 ns (20.0; the generic code about 7.8).
//   - Longer payloads run an unrolled loop of 4 blocks of 64 (AVX-512) or 32
//     (AVX2) octets whose stores are aligned to dst, with the ragged edges
//     done first: 9.3 ns at 1 KiB (gobwas/ws 15.8) and 80 ns at 16 KiB (135),
//     about what a bare 16-block AVX-512 loop with no setup takes at 1 KiB.
//
// The in-place benchmark also has a floor that no masking code avoids: the
// next call's loads wait for this call's stores. When two stores of a call
// overlap partly (the overlapping blocks at the ends of, say, 125 octets),
// those loads cannot be forwarded from one store and wait for both to reach
// the cache: about 2 ns at 125 octets, against a 128-octet payload whose
// blocks do not overlap. Splitting the ends into disjoint 16-, 8-, 4-, 2- and
// 1-octet pieces would avoid that wait, at the price of a branch per piece
// that real traffic, with payloads of every length, would mispredict.
//
//go:noescape
func xorKey(dst, src []byte, key uint32, pos int) int

// xorKeyCopy is the body of MaskCopy: copyFault's result if a check fails,
// else xorKey's. key is the masking key as MaskCopy receives it: in memory,
// its 4 octets are the little-endian word xorKey takes.
//
//go:noescape
func xorKeyCopy(dst, src []byte, key [4]byte, pos int) int

// xorKeyShort works like xorKeyGeneric for len(src) <= 128, without the
// length check (see xorKeyAVX2). It is the straight-line short path of every
// amd64 variant.
//
//go:noescape
func xorKeyShort(dst, src []byte, key uint32, pos int) int

// xorKeyAVX2 works like xorKeyGeneric, without the length check: the caller
// guarantees len(dst) >= len(src), and that dst[:len(src)] is src or does
// not overlap it.
//
//go:noescape
func xorKeyAVX2(dst, src []byte, key uint32, pos int) int

// xorKeyAVX512 works like xorKeyAVX2.
//
//go:noescape
func xorKeyAVX512(dst, src []byte, key uint32, pos int) int
