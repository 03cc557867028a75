// Package mysum is a user's own Internet checksum (RFC 1071): 32-bit words
// at a time with a 64-bit accumulator.
package mysum

import "encoding/binary"

// Sum returns the one's-complement sum of b's 16-bit big-endian words,
// added to initial, a trailing odd byte padded with zero.
func Sum(b []byte, initial uint16) uint16 {
	acc := uint64(initial)
	for ; len(b) >= 4; b = b[4:] {
		acc += uint64(binary.BigEndian.Uint32(b))
	}
	if len(b) >= 2 {
		acc += uint64(binary.BigEndian.Uint16(b)) << 16
		b = b[2:]
	}
	if len(b) == 1 {
		acc += uint64(b[0]) << 8
	}
	// Fold: 64 -> 33 -> 17 -> 16 bits, each end-around carry added back.
	acc = acc&0xffffffff + acc>>32
	acc = acc&0xffffffff + acc>>32
	acc = acc&0xffff + acc>>16
	acc = acc&0xffff + acc>>16
	return uint16(acc)
}

// Checksum is the complemented sum, as it goes in an IPv4 header.
func Checksum(b []byte) uint16 { return ^Sum(b, 0) }
