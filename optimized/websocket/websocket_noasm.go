//go:build !amd64 || purego

package websocket

// archImpls returns no SIMD variants: this build uses maskGeneric only.
func archImpls() []Impl { return nil }

// xorKey is the body of Mask and MaskCopy: xorKeyGeneric on this build.
func xorKey(dst, src []byte, key uint32, pos int) int {
	return xorKeyGeneric(dst, src, key, pos)
}
