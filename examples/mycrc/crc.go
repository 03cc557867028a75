// Package mycrc is a user's own CRC-32C (Castagnoli: the CRC of iSCSI,
// RFC 3720 §B.4, SCTP and ext4) by slicing-by-8: eight table lookups per
// 8-octet block, independent of each other so that they overlap, where
// the definition shifts eight times per octet. Its tests check it
// against the bit-at-a-time definition (ChecksumBitwise) with a suite
// functest derives from the two functions.
package mycrc

import "encoding/binary"

// poly is CRC-32C's polynomial, bit-reversed (the register shifts right).
const poly = 0x82f63b78

// tables holds the slicing-by-8 tables: tables[k][i] is the register
// after octet i followed by k zero octets.
var tables = func() *[8][256]uint32 {
	t := new([8][256]uint32)
	for i := range 256 {
		c := uint32(i)
		for range 8 {
			c = c>>1 ^ poly&-(c&1)
		}
		t[0][i] = c
	}
	for i := range 256 {
		for k := 1; k < 8; k++ {
			t[k][i] = t[0][byte(t[k-1][i])] ^ t[k-1][i]>>8
		}
	}
	return t
}()

// Checksum returns the CRC-32C of p.
func Checksum(p []byte) uint32 { return checksum(p, false) }

// ChecksumBitwise is Checksum as RFC 3720 §B.4 defines it, a bit at a
// time: the reference Checksum is checked against, slow and plain.
func ChecksumBitwise(p []byte) uint32 {
	c := ^uint32(0)
	for _, v := range p {
		c ^= uint32(v)
		for range 8 {
			c = c>>1 ^ poly&-(c&1)
		}
	}
	return ^c
}

// checksum is Checksum; with swapped, it loads each block big-endian
// where the tables want little-endian, the byte-order class of bug that
// gave zowens/crc32c wrong results on big-endian CPUs (issue #34): the
// planted bug its test selects.
func checksum(p []byte, swapped bool) uint32 {
	t := tables
	c := ^uint32(0)
	for ; len(p) >= 8; p = p[8:] {
		w := binary.LittleEndian.Uint64(p)
		if swapped {
			w = binary.BigEndian.Uint64(p)
		}
		w ^= uint64(c)
		c = t[7][byte(w)] ^ t[6][byte(w>>8)] ^ t[5][byte(w>>16)] ^ t[4][byte(w>>24)] ^
			t[3][byte(w>>32)] ^ t[2][byte(w>>40)] ^ t[1][byte(w>>48)] ^ t[0][w>>56]
	}
	for _, v := range p {
		c = t[0][byte(c)^v] ^ c>>8
	}
	return ^c
}
