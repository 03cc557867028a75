//go:build !purego

package websocket

import "encoding/binary"

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

// xorKeyInPlace is the body of Mask: xorKeyNEON's call, written out here
// (through xorKeyNEON, inlined, Mask cost 87 and was no longer inlined).
func xorKeyInPlace(b []byte, key uint32, pos int) {
	xorKeyWords(b, b, key, pos, true)
}

// xorKey is the body of MaskCopy after its checks: xorKeyNEON on this
// build.
func xorKey(dst, src []byte, key uint32, pos int) int {
	return xorKeyNEON(dst, src, key, pos)
}

// xorKeyNEON works like xorKeyGeneric: xorKeyWords with its NEON loop
// for the longest prefix that is a multiple of 64 octets, from 64 octets
// on. Under 64 octets xorKeyWords's straight-line words (up to 32
// octets) and 32-octet loop need no call into assembly. gobwas/ws masks
// with NEON on arm64 too: without it this build's 8-octet words would
// store half as many octets per store.
func xorKeyNEON(dst, src []byte, key uint32, pos int) int {
	return xorKeyWords(dst, src, key, pos, true)
}

// xorBlocksNEON sets dst[i] = src[i] ^ octet i&3 of k (little-endian) for
// every i < len(src), a positive multiple of 64 no longer than dst.
//
//go:noescape
func xorBlocksNEON(dst, src []byte, k uint32)
