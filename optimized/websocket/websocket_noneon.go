//go:build !arm64 || purego

package websocket

// xorBlocksNEON exists on arm64 only: xorKeyWords calls it only when its
// neon argument is set, which no caller on this build does.
func xorBlocksNEON(dst, src []byte, k uint32) {
	panic("websocket: xorBlocksNEON called on a build without NEON")
}
