//go:build !purego

package bench

// maskOneFloor has the signature of websocket's xorKeyInPlace, the
// assembly function an inlined websocket.Mask calls, and does the least a
// mask of one octet can: b[0] ^= byte(key). It is ABI0 as every assembly
// function outside the runtime is, so its arguments go through the stack.
// It lets BenchmarkFloorMaskSmall price one such call. b must not be
// empty.
//
//go:noescape
func maskOneFloor(b []byte, key uint32, pos int)
