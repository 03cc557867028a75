// Package checksum computes the Internet checksum of RFC 1071 (with RFC 1624 incremental update), optimized.
//
// # Contract
//
// Every variant of Sum (Sum itself, sumGeneric, and the assembly variants
// listed by Impls) returns exactly the same value for every input:
//
//   - The result is the one's-complement sum of the big-endian 16-bit words
//     of b, where an odd last byte is the HIGH byte of a final word whose low
//     byte is zero, added with end-around carry onto initial and folded to
//     16 bits. It is not complemented.
//   - The result is 0x0000 only when initial and every word of b are zero.
//     Any other total that is ≡ 0 (mod 0xFFFF) comes out as 0xFFFF, never as
//     0x0000 (one's-complement "negative zero").
//   - The result is exact for every length, including buffers of many
//     megabytes of 0xFF: no accumulator ever overflows (a plain 32-bit
//     accumulator would after about 128 KiB).
//   - Variants never read outside b, never write, and never allocate.
//
// Internally every variant sums in the machine's little-endian order and
// byte-swaps once at the end, which RFC 1071 §2(B) shows to be exact: the
// one's-complement sum is independent of byte order up to a final swap. In
// that little-endian domain, a k-byte word at an offset that is a multiple of
// k contributes its integer value, because 2^16 ≡ 1 (mod 0xFFFF); so wider
// words (32, 64 bits, SIMD lanes) can be added as integers and folded later.
// Folding (x>>16 + x&0xFFFF, repeated) and the end-around carry both preserve
// "nonzero" and the value mod 0xFFFF, which is how the 0x0000/0xFFFF rule
// above holds.
package checksum

import (
	"encoding/binary"
	"hash"
	"math/bits"
)

// Sum returns the one's-complement sum of b's big-endian 16-bit words,
// accumulated onto initial and folded to 16 bits, but not complemented
// (RFC 1071 §1). If len(b) is odd, the last byte is padded with a zero byte,
// so it is the high byte of the last word. The result is 0 only if initial
// and every byte of b are zero.
//
// Sum(b2, Sum(b1, initial)) == Sum(concat(b1, b2), initial) when len(b1) is
// even; for odd splits use Digest.
//
// Inputs shorter than smallMax bytes are summed right here, in plain Go,
// with no loop, no SIMD setup (a vector kernel pays for zeroing and reducing
// its accumulators and for VZEROUPPER), no second call and as few taken
// branches as the length allows: in a benchmark loop, and in a packet loop
// of one header size, each costs about as much as a load and an add. The
// 20-byte IPv4 header, the most common input of all, is tested first and
// summed with five loads and four adds: its cost is within about 0.4 ns of
// calling an empty function. Inputs of 1 to 7 bytes take at most two loads,
// and 8 to 63 bytes one 64-bit load per 8 bytes plus one for the last
// len(b)%8 bytes. BenchmarkSum/size=20 and size=40 compare this path
// (impl=dispatch) with the variants called directly, and bench's
// SweepChecksum with gVisor at every length. Longer inputs go to the best
// variant for this CPU, chosen once at init.
func Sum(b []byte, initial uint16) uint16 {
	// In the little-endian domain a 16-, 32- or 64-bit word at an offset
	// that is a multiple of its size contributes its integer value
	// (2^16 ≡ 1 mod 0xFFFF). acc stays under 2^57 until the 64-bit words,
	// which are added with end-around carry (≡ mod 2^64-1, a multiple of
	// 0xFFFF, and nonzero if either operand is).
	acc := uint64(swap16(initial))
	if len(b) == 20 {
		// An IPv4 header without options (RFC 791 §3.1).
		b = b[:20]
		acc += uint64(binary.LittleEndian.Uint32(b[0:4])) + uint64(binary.LittleEndian.Uint32(b[4:8])) +
			uint64(binary.LittleEndian.Uint32(b[8:12])) + uint64(binary.LittleEndian.Uint32(b[12:16])) +
			uint64(binary.LittleEndian.Uint32(b[16:20]))
		return swap16(fold64(acc))
	}
	if len(b) >= smallMax {
		// sumVector is inlined here: where the AVX-512 kernel is the
		// variant chosen at init, Sum calls it directly, one call fewer
		// than through sumLarge and sumAVX512 (about 0.8 ns of 5 at 64 to
		// 256 bytes). Elsewhere it reports false at no cost.
		if s, ok := sumVector(b); ok {
			return swap16(fold64(addEAC(acc, s)))
		}
		if len(b) >= mediumMax {
			return sumLarge(b, initial)
		}
		// One to eight 64-byte blocks, each as eight 64-bit words added
		// with carry into acc and the last carry added back (end-around
		// carry, as addEAC). 25 instructions a block where sumBlocks's
		// sixteen 32-bit words take 36, and no call: in a loop of
		// independent calls it is the instruction count that costs, not
		// the chain of carries. Then acc's two 32-bit halves are added
		// (≡ mod 2^32-1, a multiple of 0xFFFF, and nonzero if acc is),
		// so that acc is under 2^33 and the path below may add to it
		// without carries.
		for len(b) >= 64 {
			w := b[:64]
			var c uint64
			acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(w[0:8]), 0)
			acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(w[8:16]), c)
			acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(w[16:24]), c)
			acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(w[24:32]), c)
			acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(w[32:40]), c)
			acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(w[40:48]), c)
			acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(w[48:56]), c)
			acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(w[56:64]), c)
			acc += c
			b = b[64:]
		}
		acc = acc&0xFFFFFFFF + acc>>32
	}
	n := len(b)
	if n < 8 {
		// 4 to 7 bytes: two 32-bit loads, one at each end, overlapping in
		// the middle; the second is shifted so that only its bytes past
		// the first remain, which start at offset 4, so they keep their
		// weight (a shift by 32, n == 4, leaves none). 2 or 3 bytes: a
		// 16-bit load and the odd last byte, which is dropped for n == 2
		// (two overlapping 16-bit loads would sum 4 bytes right as well,
		// so sending 4 bytes down this path would be a mistake no test
		// could see).
		if n >= 4 {
			acc += uint64(binary.LittleEndian.Uint32(b[:4])) + uint64(binary.LittleEndian.Uint32(b[n-4:]))>>((64-8*n)&63)
		} else if n >= 2 {
			acc += uint64(binary.LittleEndian.Uint16(b[:2])) + uint64(b[n-1])&-uint64(n&1)
		} else if n == 1 {
			acc += uint64(b[0])
		}
		return swap16(fold64(acc))
	}
	// The last n%8 bytes start at n&^7, a multiple of 8: load the 8 bytes
	// that end at n and shift the others out (all of them when n%8 == 0:
	// two shifts, since one may not shift by 64). Then the 8-byte words
	// of b[:n&^7], taken by the bits of n/8 from the end, as 1, 2 and 4
	// words: three branches whatever the length.
	acc += binary.LittleEndian.Uint64(b[n-8:]) >> 1 >> ((63 - 8*(n&7)) & 63)
	b = b[:n&^7]
	if len(b)&15 >= 8 {
		acc = addEAC(acc, binary.LittleEndian.Uint64(b[len(b)-8:]))
		b = b[:len(b)-8]
	}
	if len(b)&31 >= 16 {
		t := b[len(b)-16:]
		var c uint64
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(t), 0)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(t[8:]), c)
		acc += c
		b = b[:len(b)-16]
	}
	if len(b) >= 32 { // len(b) is now 0 or 32
		var c uint64
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[0:8]), 0)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[8:16]), c)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[16:24]), c)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[24:32]), c)
		acc += c
	}
	return swap16(fold64(acc))
}

// Checksum returns the Internet checksum of b: the complement of Sum(b, 0),
// ready to be stored big-endian in a header's checksum field.
//
// UDP's rule that a computed checksum of 0x0000 is transmitted as 0xFFFF
// (RFC 768) is the caller's job; Checksum returns 0x0000 in that case.
func Checksum(b []byte) uint16 {
	return ^Sum(b, 0)
}

// Update returns the checksum of a header whose checksum field holds
// checksum, after one of its 16-bit words changed from old to new. It uses
// RFC 1624 Eqn. 3, HC' = ~(~HC + ~m + m'), in one's-complement arithmetic
// (end-around carry), so it gets right the case RFC 1624 §4 shows Eqn. 2
// getting wrong: Update(0xDD2F, 0x5555, 0x3285) == 0x0000.
//
// If old == new, Update returns checksum as it is (RFC 1624 errata 4782),
// where Eqn. 3 would turn a field of 0xFFFF, the checksum of all-zero
// data, into 0x0000, which does not verify.
//
// If checksum was computed by Checksum, Update returns exactly what
// Checksum returns for the updated data, unless a word changed and the
// updated data is all zero: then Update gives 0x0000 where Checksum gives
// 0xFFFF, the other representation of one's-complement zero (Eqn. 3
// cannot tell all-zero data from data whose sum is 0xFFFF, and RFC 1624
// §3 assumes a header with a word that is not zero).
func Update(checksum, old, new uint16) uint16 {
	if old == new {
		return checksum
	}
	s := uint32(^checksum) + uint32(^old) + uint32(new) // at most 3*0xFFFF
	return ^fold32(s)
}

// smallMax is the length from which Sum calls a variant; shorter inputs never
// leave Sum. The variants sum their own tails (sumTail, or the AVX-512
// kernel's masked load), so that each is checked on its own; Sum's
// short-input path is checked as the "dispatch" variant.
//
// Measured on Zen 5 (the reference machine): the AVX-512 kernel, through its
// wrapper, costs about 4.5-4.6 ns at 20, 40 and 64 bytes alike (BenchmarkSum,
// impl=avx512), and Sum calling it directly 3.8 ns at 64; the plain-Go path
// 2.0-3.5 ns at every length up to 63 (bench's SweepChecksum). 64 keeps every
// input shorter than one vector on the plain-Go path, which is also the right
// choice for the AVX2 and generic variants.
const smallMax = 64

// mediumMax is the length from which Sum calls a variant other than the
// AVX-512 kernel (which it calls from smallMax). Shorter inputs are summed
// in Go: their 64-byte blocks with a chain of 64-bit adds with carry, the
// rest with the short path. On a Zen 1 core the AVX2 variant, through
// sumLarge, took 20-33 ns at 64-255 bytes against gVisor's 12-24: it pays
// an indirect call, the kernel's call, the zeroing and reduction of eight
// vector accumulators and a Go tail, about 19 ns before its first block.
// Measured on an AMD EPYC with AVX2 and no AVX-512 (bench's
// SweepChecksum, ten interleaved rounds, 2026-12-05): the carry chain
// costs about 0.06 ns a byte (31 ns at 512 bytes, 62 at 1024), the AVX2
// variant 19 ns plus 0.026 ns a byte (32.5 at 512, 46 at 1024); they
// cross near 560 bytes.
const mediumMax = 576

// swap16 byte-swaps a 16-bit one's-complement value between big-endian and
// little-endian order. Swapping is exact: it multiplies by 2^8 (mod 0xFFFF),
// maps 0 to 0 and 0xFFFF to 0xFFFF.
func swap16(x uint16) uint16 { return bits.ReverseBytes16(x) }

// fold64 reduces x modulo 0xFFFF into [0, 0xFFFF], returning 0 only for
// x == 0 (so a nonzero multiple of 0xFFFF gives 0xFFFF).
//
// x + rotl(x, 32) holds hi+lo in its upper half, plus the carry out of the
// lower half, which is exactly the end-around carry: the upper half is the
// one's-complement sum of the two 32-bit halves, nonzero if x is. fold32 does
// the same with 16-bit halves.
func fold64(x uint64) uint16 {
	return fold32(uint32((x + bits.RotateLeft64(x, 32)) >> 32))
}

// fold32 is fold64 for a 32-bit value.
func fold32(x uint32) uint16 {
	return uint16((x + bits.RotateLeft32(x, 16)) >> 16)
}

// addEAC returns a + b with end-around carry: ≡ a + b (mod 0xFFFF), and zero
// only if both are zero (the carry makes the result at least 1).
func addEAC(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	return s + c // cannot overflow: if c == 1, s <= 2^64-2
}

// Digest computes the checksum of a stream of writes of any lengths; it
// implements hash.Hash. The zero value is ready to use and sums with Sum.
//
// Following RFC 1071 §3, after an odd number of bytes the next write is
// summed as if it started on an even boundary and then byte-swapped, so that
// Sum16 always equals Sum(concat(all writes), 0) bit for bit.
type Digest struct {
	sum func(b []byte, initial uint16) uint16 // nil means Sum
	acc uint16                                // Sum of all bytes written so far
	odd bool                                  // an odd number of bytes was written
}

var _ hash.Hash = (*Digest)(nil)

// New returns a Digest that sums with Sum, the best variant for this CPU.
func New() *Digest { return &Digest{} }

// Write adds p to the running sum. It never returns an error.
func (d *Digest) Write(p []byte) (int, error) {
	sum := d.sum
	if sum == nil {
		sum = Sum
	}
	if d.odd {
		// p[0] is the low byte of a word. Summing p with everything
		// swapped, then swapping back, puts each byte in its place:
		// swap(Sum(p, swap(acc))) = acc + swap(Sum(p, 0)).
		d.acc = swap16(sum(p, swap16(d.acc)))
	} else {
		d.acc = sum(p, d.acc)
	}
	d.odd = d.odd != (len(p)&1 == 1)
	return len(p), nil
}

// Sum16 returns the running Sum (not complemented) of all bytes written:
// exactly Sum(concat(all writes), 0).
func (d *Digest) Sum16() uint16 { return d.acc }

// Sum appends the 2-byte big-endian checksum, ^Sum16(), to in. It does not
// change the Digest.
func (d *Digest) Sum(in []byte) []byte {
	return binary.BigEndian.AppendUint16(in, ^d.acc)
}

// Reset forgets all bytes written; the Digest keeps its variant.
func (d *Digest) Reset() {
	d.acc = 0
	d.odd = false
}

// Size returns 2, the number of bytes Sum appends.
func (d *Digest) Size() int { return 2 }

// BlockSize returns 2, the size of a 16-bit word. Writes of any length are
// accepted; even-length writes avoid the byte swap of the odd case.
func (d *Digest) BlockSize() int { return 2 }

// Impl is one variant of Sum, for tests and benchmarks that must reach each
// variant directly rather than through dispatch.
type Impl struct {
	Name      string                                // "avx512", "avx2", "generic"
	Available bool                                  // whether Sum may be called on this CPU and build
	Sum       func(b []byte, initial uint16) uint16 // this variant's own function, never the dispatcher
}

// New returns a Digest whose Write uses i.Sum. i must be Available.
func (i Impl) New() *Digest { return &Digest{sum: i.Sum} }

// Impls returns every variant of Sum built into this package, best first,
// including those this CPU cannot run (Available == false). Each call
// returns a new slice.
func Impls() []Impl { return impls() }

// sumLarge is Sum for len(b) >= smallMax: the Sum of the first available
// variant of Impls, chosen once by init.
var sumLarge func(b []byte, initial uint16) uint16

// chosen is the name of the variant sumLarge is, for tests.
var chosen string

func init() {
	for _, i := range impls() {
		if i.Available {
			sumLarge, chosen = i.Sum, i.Name
			return
		}
	}
}
