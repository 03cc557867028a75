// Package mymask is a user's own WebSocket masking (RFC 6455 §5.3), eight
// bytes at a time, modelled on masking code that, like gobwas/ws's Cipher,
// documents that pos must not be negative.
package mymask

import "encoding/binary"

// Mask XORs b in place with key, starting at key octet pos%4, and returns
// the position after b. pos must not be negative.
func Mask(b []byte, key [4]byte, pos int) int {
	if pos < 0 {
		panic("mymask: negative position")
	}
	var rot [4]byte
	for i := range rot {
		rot[i] = key[(pos+i)&3]
	}
	k32 := binary.LittleEndian.Uint32(rot[:])
	k64 := uint64(k32) | uint64(k32)<<32
	i := 0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], binary.LittleEndian.Uint64(b[i:])^k64)
	}
	for ; i < len(b); i++ {
		b[i] ^= rot[i&3]
	}
	return (pos + len(b)) & 3
}
