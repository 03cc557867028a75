package battery

import (
	"encoding/binary"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// crc32cModel is CRC-32C (Castagnoli, the CRC of RFC 3720 §B.4) by
// slicing-by-8, checked against the bit-at-a-time definition.
func crc32cModel() funcModel {
	return funcModel{name: "crc32c",
		suite: func(bug string) equiv.Suite { return functest.New("CRC32C", crc32cBitwise, crc32cSlicing8(bug)) },
		bugs: []funcBug{
			{"signed-octets",
				"ICRAR/crc32c#43, fixed by PR #44: _crc32c_sw_slicing_by_8 read its buffer through char, so on signed-char platforms (SPARC) an octet of 0x80 or more sign-extended into the word it was shifted into (0xffee0000 for 0x00ee0000)",
				"content: octets ≥ 0x80 in the 8-octet blocks (length ≥ 8)"},
			{"big-endian-word",
				"zowens/crc32c#34 (fixed by PR #35) and rustsec/advisory-db#1442: the crc32c crate's software CRC-32C gave wrong results on big-endian CPUs; here, that byte-order class of bug, each block is loaded big-endian where the tables want little-endian",
				"content: blocks whose octets differ (length ≥ 8)"},
			{"head-drops-initial",
				"borgbackup/borg#10150 (fixed by PR #10151): in the alignment prologue of crc32_clmul only the first algn_diff octets of the initial value were folded in, so for 1..3 octets before the boundary its upper octets were dropped",
				"alignment: inputs of 16+ octets starting 5..7 octets past an 8-octet boundary (a head of 1..3)"},
			{"short-over-read",
				"borgbackup/borg#10149 (fixed by PR #10151): inputs of 4..15 octets were loaded as one 16-octet vector and the excess discarded, right results but a read past the end that faulted at a page boundary",
				"guard pages: lengths 4..15 ending at an unmapped page"},
		}}
}

// crc32cPoly is CRC-32C's polynomial, reflected.
const crc32cPoly = 0x82f63b78

// crc32cBitwise is CRC-32C a bit at a time: the register starts at all
// ones, each octet is shifted in low bit first, the result is inverted.
func crc32cBitwise(p []byte) uint32 {
	c := ^uint32(0)
	for _, v := range p {
		c ^= uint32(v)
		for range 8 {
			c = c>>1 ^ crc32cPoly&-(c&1)
		}
	}
	return ^c
}

// crc32cTables are the slicing-by-8 tables: t[k][i] is the register after
// octet i followed by k zero octets, so that one lookup per octet of an
// 8-octet block, in its own table, advances the register by the block.
var crc32cTables = func() *[8][256]uint32 {
	t := new([8][256]uint32)
	for i := range 256 {
		c := uint32(i)
		for range 8 {
			c = c>>1 ^ crc32cPoly&-(c&1)
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

// crc32cSlicing8 returns CRC-32C by slicing-by-8 with bug switched on: a
// byte loop up to the first 8-octet boundary (for inputs of 16 octets or
// more), then 8 octets a block with eight independent table lookups
// (about five times the byte loop's speed), then the tail a byte at a
// time.
func crc32cSlicing8(bug string) func([]byte) uint32 {
	t := crc32cTables
	return func(p []byte) uint32 {
		c := ^uint32(0)
		if bug == "short-over-read" && len(p) >= 4 && len(p) < 16 {
			w := *(*[16]byte)(unsafe.Pointer(unsafe.SliceData(p))) // one vector load
			p = w[:len(p)]
		}
		if len(p) >= 16 {
			head := -addrMod8(p) & 7
			if bug == "head-drops-initial" && head >= 1 && head <= 3 {
				c &= 1<<(8*head) - 1
			}
			for _, v := range p[:head] {
				c = t[0][byte(c)^v] ^ c>>8
			}
			p = p[head:]
		}
		for ; len(p) >= 8; p = p[8:] {
			lo := crcWord(p[:4], bug) ^ c
			hi := crcWord(p[4:8], bug)
			c = t[7][byte(lo)] ^ t[6][byte(lo>>8)] ^ t[5][byte(lo>>16)] ^ t[4][lo>>24] ^
				t[3][byte(hi)] ^ t[2][byte(hi>>8)] ^ t[1][byte(hi>>16)] ^ t[0][hi>>24]
		}
		for _, v := range p {
			c = t[0][byte(c)^v] ^ c>>8
		}
		return ^c
	}
}

// crcWord loads four octets as the tables want them, little-endian, or as
// bug loads them.
func crcWord(b []byte, bug string) uint32 {
	switch bug {
	case "big-endian-word":
		return binary.BigEndian.Uint32(b)
	case "signed-octets":
		return uint32(int8(b[0])) | uint32(int8(b[1]))<<8 | uint32(int8(b[2]))<<16 | uint32(int8(b[3]))<<24
	}
	return binary.LittleEndian.Uint32(b)
}
