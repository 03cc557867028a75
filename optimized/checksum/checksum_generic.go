package checksum

import "encoding/binary"

// maxChunk bounds how many bytes are summed into plain (carry-free) uint64
// accumulators before they are folded into the running total with an
// end-around carry. 1 GiB is far below every overflow bound in this package:
// in sumGeneric each of the 4 accumulators receives at most 2^30/16 32-bit
// words, so stays below 2^26 * 2^32 = 2^58; the vector kernels' bounds are
// derived in checksum_amd64.s. It must be even, so that chunks never shift
// the byte parity, and at least 64, a whole block of every variant. It is a
// variable only so that tests can shrink it to exercise the chunking with
// small buffers; nothing else assigns it.
var maxChunk = 1 << 30

// sumGeneric is the portable variant of Sum, in pure Go, for every length.
// It works like Sum (and is what Sum uses without assembly).
//
// It sums 64-byte blocks as sixteen little-endian 32-bit words into four
// independent uint64 accumulators: RFC 1071 §2(C) and §2(D), parallel
// summation with the carries deferred and folded once at the end. On amd64 the loads compile to single MOVLs with
// no bounds checks; the four chains let the adds run in parallel, which
// measured about 1.4x faster than one 64-bit add-with-carry chain
// (math/bits.Add64), whose every ADC waits for the previous one's carry.
// The sum is taken in little-endian order and swapped once at the end, as
// RFC 1071 §2(B) allows.
func sumGeneric(b []byte, initial uint16) uint16 {
	acc := uint64(swap16(initial))
	blocks, tail := b[:len(b)&^63], b[len(b)&^63:]
	for len(blocks) != 0 {
		n := min(len(blocks), maxChunk) &^ 63
		acc = addEAC(acc, sumBlocks(blocks[:n]))
		blocks = blocks[n:]
	}
	// Fewer than 64 bytes remain, at an even offset. sumTail sums them
	// here, not Sum: the variant never goes through dispatch, so a bug in
	// its tail shows in this variant.
	return swap16(fold64(addEAC(acc, sumTail(tail))))
}

// sumBlocks returns the sum of the little-endian 32-bit words of the whole
// 64-byte blocks of p, below 2^60 for len(p) <= maxChunk (see maxChunk),
// ≡ the sum of their 16-bit words (mod 0xFFFF) and zero only if they are
// all zero. It is sumGeneric's loop.
func sumBlocks(p []byte) uint64 {
	var a0, a1, a2, a3 uint64
	for len(p) >= 64 {
		// Sixteen 32-bit words at offsets that are multiples of 4, so
		// each contributes its integer value (2^16 ≡ 1 mod 0xFFFF).
		a0 += uint64(binary.LittleEndian.Uint32(p[0:4]))
		a1 += uint64(binary.LittleEndian.Uint32(p[4:8]))
		a2 += uint64(binary.LittleEndian.Uint32(p[8:12]))
		a3 += uint64(binary.LittleEndian.Uint32(p[12:16]))
		a0 += uint64(binary.LittleEndian.Uint32(p[16:20]))
		a1 += uint64(binary.LittleEndian.Uint32(p[20:24]))
		a2 += uint64(binary.LittleEndian.Uint32(p[24:28]))
		a3 += uint64(binary.LittleEndian.Uint32(p[28:32]))
		a0 += uint64(binary.LittleEndian.Uint32(p[32:36]))
		a1 += uint64(binary.LittleEndian.Uint32(p[36:40]))
		a2 += uint64(binary.LittleEndian.Uint32(p[40:44]))
		a3 += uint64(binary.LittleEndian.Uint32(p[44:48]))
		a0 += uint64(binary.LittleEndian.Uint32(p[48:52]))
		a1 += uint64(binary.LittleEndian.Uint32(p[52:56]))
		a2 += uint64(binary.LittleEndian.Uint32(p[56:60]))
		a3 += uint64(binary.LittleEndian.Uint32(p[60:64]))
		p = p[64:]
	}
	// a0+a1+a2+a3 < 2^60 (see maxChunk); sumGeneric's end-around carry
	// keeps its running total exact mod 0xFFFF across any number of
	// ps.
	return a0 + a1 + a2 + a3
}

// sumTail returns the sum of the little-endian 32-bit words of b (a last
// partial word zero-padded on the right), ≡ the sum of its 16-bit words
// (mod 0xFFFF) and zero only if b is all zero. It is the tail of the
// generic and AVX2 variants: b lies at an even offset of their input (a
// multiple of 32), so an odd last byte is the low byte of a little-endian
// word, the high byte of a big-endian one. It is given fewer than 64 bytes,
// but its int length and uint64 sum hold for any length below 2^34 words.
func sumTail(b []byte) uint64 {
	var s uint64
	for ; len(b) >= 4; b = b[4:] {
		s += uint64(binary.LittleEndian.Uint32(b))
	}
	if len(b) >= 2 {
		s += uint64(binary.LittleEndian.Uint16(b))
		b = b[2:]
	}
	if len(b) == 1 {
		s += uint64(b[0])
	}
	return s
}
