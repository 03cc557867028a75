package websocket

import (
	"encoding/binary"
	"math/bits"
)

// rotKey returns the key word for the octet n octets after the one k starts
// at. Only n mod 4 matters; rotating the 64-bit word by 8*n bits (the count
// is taken mod 64, that is n mod 8) is the same thing because k repeats every
// 4 octets.
func rotKey(k uint64, n int) uint64 {
	return bits.RotateLeft64(k, -8*n)
}

// maskGeneric is the portable Mask. It works like reference/websocket.Mask.
func maskGeneric(b []byte, key [4]byte, pos int) int {
	return xorKeyGeneric(b, b, binary.LittleEndian.Uint32(key[:]), pos)
}

// maskCopyGeneric is the portable MaskCopy. It works like
// reference/websocket.MaskCopy, panics included.
func maskCopyGeneric(dst, src []byte, key [4]byte, pos int) int {
	checkCopy(dst, src)
	return xorKeyGeneric(dst, src, binary.LittleEndian.Uint32(key[:]), pos)
}

// xorKeyGeneric sets dst[i] = src[i] ^ key[(pos+i)&3] for i < len(src),
// where key is the masking key read little-endian, and returns
// (pos+len(src))&3. It panics if dst is shorter than src; dst[:len(src)]
// must either be src or not overlap it.
//
// It works on 8-octet words (binary.LittleEndian loads and stores compile to
// single MOVQs on amd64 and arm64, and the XOR with memory operand fuses into
// XORQ), and covers any length without a byte loop by letting the last words
// overlap the first ones: every word is loaded before any overlapping word is
// stored, and an octet written twice gets the same value twice. Inside the
// 32-octet loop each word starts at a multiple of 4, so the key word is k; a
// word at offset o uses rotKey(k, o).
func xorKeyGeneric(dst, src []byte, key uint32, pos int) int {
	return xorKeyWords(dst, src, key, pos, false)
}

// xorKeyWords is xorKeyGeneric's code. With neon set (arm64's neon
// variant, on no other build), a payload of 64 octets or more masks its
// longest prefix that is a multiple of 64 with xorBlocksNEON and the rest
// with this code, from the position after the prefix. A payload under 64
// octets then makes one call, as in the generic variant, where a NEON
// entry in front of this code would make two.
func xorKeyWords(dst, src []byte, key uint32, pos int, neon bool) int {
	// k is the key as a little-endian 64-bit word whose octet i is the key
	// octet for src[i], i < 8: key rotated right by 8*(pos&3) bits, twice.
	k := uint64(bits.RotateLeft32(key, -8*(pos&3))) * (1<<32 | 1)
	n := len(src)
	if len(dst) < n {
		panic(errShortDst)
	}
	le := binary.LittleEndian
	switch {
	case neon && n >= 64:
		m := n &^ 63
		xorBlocksNEON(dst[:m], src[:m], uint32(k))
		xorKeyWords(dst[m:n], src[m:], key, pos+m, false)
	case n > 32:
		// Load the last 32 octets before the loop can overwrite them
		// in place; store them after it.
		kt := rotKey(k, n)
		st, dt := src[n-32:], dst[n-32:]
		t0 := le.Uint64(st[0:8]) ^ kt
		t1 := le.Uint64(st[8:16]) ^ kt
		t2 := le.Uint64(st[16:24]) ^ kt
		t3 := le.Uint64(st[24:32]) ^ kt
		// Blocks of 32 octets from the start while any octet before
		// the tail remains (at least 33 octets left); the last block
		// may run into the tail. Testing both lengths lets the compiler
		// drop every bounds check in the loop. (Written ">= 33", not
		// "> 32": stopping one octet early then leaves an octet
		// unmasked, which a test sees, where running one turn more
		// would only store the tail's octets twice.)
		for s, d := src, dst; len(s) >= 33 && len(d) >= 33; s, d = s[32:], d[32:] {
			w0 := le.Uint64(s[0:8])
			w1 := le.Uint64(s[8:16])
			w2 := le.Uint64(s[16:24])
			w3 := le.Uint64(s[24:32])
			le.PutUint64(d[0:8], w0^k)
			le.PutUint64(d[8:16], w1^k)
			le.PutUint64(d[16:24], w2^k)
			le.PutUint64(d[24:32], w3^k)
		}
		le.PutUint64(dt[0:8], t0)
		le.PutUint64(dt[8:16], t1)
		le.PutUint64(dt[16:24], t2)
		le.PutUint64(dt[24:32], t3)
	case n >= 16:
		// 16..32: words at 0, 8, n-16 and n-8.
		kt := rotKey(k, n)
		w0 := le.Uint64(src[0:8]) ^ k
		w1 := le.Uint64(src[8:16]) ^ k
		w2 := le.Uint64(src[n-16:]) ^ kt
		w3 := le.Uint64(src[n-8:]) ^ kt
		le.PutUint64(dst[0:8], w0)
		le.PutUint64(dst[8:16], w1)
		le.PutUint64(dst[n-16:], w2)
		le.PutUint64(dst[n-8:], w3)
	case n >= 8:
		// 8..15: words at 0 and n-8.
		w0 := le.Uint64(src[0:8]) ^ k
		w1 := le.Uint64(src[n-8:]) ^ rotKey(k, n)
		le.PutUint64(dst[0:8], w0)
		le.PutUint64(dst[n-8:], w1)
	case n >= 4:
		// 4..7: 32-bit words at 0 and n-4.
		w0 := le.Uint32(src[0:4]) ^ uint32(k)
		w1 := le.Uint32(src[n-4:]) ^ uint32(rotKey(k, n))
		le.PutUint32(dst[0:4], w0)
		le.PutUint32(dst[n-4:], w1)
	case n >= 2:
		// 2..3: a 16-bit word at 0 and, for 3, the octet at 2. They do
		// not overlap, so a load that follows is forwarded from one
		// store (see BenchmarkMask/size=2).
		w := le.Uint16(src[0:2]) ^ uint16(k)
		if n == 3 {
			dst[2] = src[2] ^ byte(k>>16)
		}
		le.PutUint16(dst[0:2], w)
	case n == 1:
		dst[0] = src[0] ^ byte(k)
	}
	return (pos + n) & 3
}
