//go:build !amd64 || purego

package websocket

import "encoding/binary"

// xorKeyCopy is the body of MaskCopy where it is Go (amd64 makes its checks
// in assembly): copyFault's result if a check fails, else xorKey's.
func xorKeyCopy(dst, src []byte, key [4]byte, pos int) int {
	if fault := copyFault(dst, src); fault != 0 {
		return fault
	}
	return xorKey(dst, src, binary.LittleEndian.Uint32(key[:]), pos)
}
