//go:build !(amd64 || arm64) || purego

package websocket

import "encoding/binary"

// archImpls returns no SIMD variants: this build uses maskGeneric only.
func archImpls() []Impl { return nil }

// xorKeyInPlace is the body of Mask: xorKeyGeneric on this build.
func xorKeyInPlace(b []byte, key uint32, pos int) {
	xorKeyGeneric(b, b, key, pos)
}

// xorKey is the body of MaskCopy: xorKeyGeneric on this build.
func xorKey(dst, src []byte, key uint32, pos int) int {
	return xorKeyGeneric(dst, src, key, pos)
}

// xorKeyCopy is the body of MaskCopy: copyFault's result if a check
// fails, else xorKey's.
func xorKeyCopy(dst, src []byte, key [4]byte, pos int) int {
	if fault := copyFault(dst, src); fault != 0 {
		return fault
	}
	return xorKey(dst, src, binary.LittleEndian.Uint32(key[:]), pos)
}
