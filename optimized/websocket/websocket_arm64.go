//go:build !purego

package websocket

import (
	"encoding/binary"
	"math/bits"
)

// archImpls returns the NEON variant. Advanced SIMD is part of every
// ARMv8-A core, so it is always available and is what Mask and MaskCopy
// run.
func archImpls() []Impl {
	return []Impl{{Name: "neon", Available: true, Mask: maskNEON, MaskCopy: maskCopyNEON}}
}

// maskNEON works like maskGeneric, with xorKeyNEON.
func maskNEON(b []byte, key [4]byte, pos int) int {
	return xorKeyNEON(b, b, binary.LittleEndian.Uint32(key[:]), pos)
}

// maskCopyNEON works like maskCopyGeneric, with xorKeyNEON.
func maskCopyNEON(dst, src []byte, key [4]byte, pos int) int {
	checkCopy(dst, src)
	return xorKeyNEON(dst, src, binary.LittleEndian.Uint32(key[:]), pos)
}

// xorKeyInPlace is the body of Mask: xorKeyNEON on this build.
func xorKeyInPlace(b []byte, key uint32, pos int) {
	xorKeyNEON(b, b, key, pos)
}

// xorKey is the body of MaskCopy after its checks: xorKeyNEON on this
// build.
func xorKey(dst, src []byte, key uint32, pos int) int {
	return xorKeyNEON(dst, src, key, pos)
}

// neonMin is the length from which xorKeyNEON runs the vector loop. Under
// it xorKeyGeneric's straight-line words (up to 32 octets) and 32-octet
// loop need no call into assembly.
const neonMin = 64

// xorKeyNEON works like xorKeyGeneric: from neonMin octets on, the longest
// prefix that is a multiple of 64 octets goes through xorBlocksNEON, 64
// octets (four 16-octet registers) a turn, and the rest, under 64 octets,
// through xorKeyGeneric with the position after the prefix. In place, the
// prefix is stored before the rest is loaded, and the two do not overlap.
// github.com/gobwas/ws masks with NEON on arm64 too: without it this
// build's 8-octet words would store half as many octets per store.
func xorKeyNEON(dst, src []byte, key uint32, pos int) int {
	n := len(src)
	if len(dst) < n {
		panic(errShortDst)
	}
	if m := n &^ 63; m >= neonMin {
		xorBlocksNEON(dst[:m], src[:m], bits.RotateLeft32(key, -8*(pos&3)))
		return xorKeyGeneric(dst[m:n], src[m:], key, pos+m)
	}
	return xorKeyGeneric(dst, src, key, pos)
}

// xorBlocksNEON sets dst[i] = src[i] ^ octet i&3 of k (little-endian) for
// every i < len(src), a positive multiple of 64 no longer than dst.
//
//go:noescape
func xorBlocksNEON(dst, src []byte, k uint32)
