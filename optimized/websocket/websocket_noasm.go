//go:build !(amd64 || arm64) || purego

package websocket

// archImpls returns no SIMD variants: this build uses maskGeneric only.
func archImpls() []Impl { return nil }

// xorKeyInPlace is the body of Mask: xorKeyGeneric's code on this build,
// called directly (through xorKeyGeneric, inlined, Mask is over the
// inliner's budget of 80 and is no longer inlined).
func xorKeyInPlace(b []byte, key uint32, pos int) {
	xorKeyWords(b, b, key, pos, false)
}

// xorKey is the body of MaskCopy: xorKeyGeneric on this build.
func xorKey(dst, src []byte, key uint32, pos int) int {
	return xorKeyGeneric(dst, src, key, pos)
}
