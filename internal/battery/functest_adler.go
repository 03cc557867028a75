package battery

import (
	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// adler32Model is Adler-32 (RFC 1950 §8.2) with the modulo deferred over
// blocks, checked against the definition computed by hand, one octet and
// two remainders at a time.
func adler32Model() funcModel {
	return funcModel{name: "adler32",
		suite: func(bug string) equiv.Suite { return functest.New("Adler32", adler32ByHand, adler32Deferred(bug)) },
		bugs: []funcBug{
			{"mod-65536",
				"OctopusDeploy/Octodiff#16: Adler32RollingChecksum reduced its sums by a cast to ushort, modulo 65536 where RFC 1950 says 65521",
				"length: sums past 65520 (B after a few dozen octets, A after a few hundred)"},
			{"signed-remainder",
				"adamhathcock/sharpcompress#301 (fixing #298): Adler32 kept its sums in int, so a sum past 2^31 in a block of 5552 octets went negative and % gave a negative remainder; the PR's author checked it with 5000 octets of 0xFF",
				"length ≥ 5552 of high octets (random data reaches 2^31 in about half of the blocks)"},
			{"nmax-5803",
				"madler/zlib#356: NMAX computed for sums that start at 1 and 0 (5803) instead of at 65520 and 65520 (zlib's 5552), right for the first block only: a later block of 0xFF octets overflows B",
				"scale: a second block (past 5803 octets) of octets near 0xFF"},
			{"weighted-sum-16bit",
				"class: 16-bit lanes in a vector Adler-32; while writing zlib-ng/zlib-ng#1166 (the NEON kernel) its author traced wrong results to \"the 16 bit multiply-accumulates since they can't accumulate back to 32 bit values\"; here a 32-octet block's weighted sum is kept in 16 bits",
				"content: 32-octet blocks whose weighted sum passes 65535 (octets averaging more than 124)"},
			{"unreduced-accumulator",
				"zlib-ng/zlib-ng#1826: adler32_rvv's v_buf32_accu was left out of the modulo done every NMAX octets and overflowed on long inputs (a 2 MB file in git fsck)",
				"scale: inputs of a few blocks of 5552 and more"},
		}}
}

// adlerBase is the largest prime below 2^16 (RFC 1950 §8.2).
const adlerBase = 65521

// adler32ByHand is Adler-32 as RFC 1950 §8.2 defines it: A is 1 plus the
// sum of the octets, B the sum of the successive values of A, both modulo
// 65521, and the checksum B·65536 + A.
func adler32ByHand(p []byte) uint32 {
	a, b := uint32(1), uint32(0)
	for _, v := range p {
		a = (a + uint32(v)) % adlerBase
		b = (b + a) % adlerBase
	}
	return b<<16 | a
}

// adler32Deferred returns Adler-32 with bug switched on, the way zlib
// computes it: the remainders taken once per block of NMAX octets (5552,
// the most for which B cannot pass 2^32 from A = B = 65520), each block
// summed 32 octets at a time (the octet sum and the weighted sum of a
// 32-octet block are independent, so they pipeline; B's share of A,
// 32·A per block, is accumulated apart, as a vector kernel's lanes are).
func adler32Deferred(bug string) func([]byte) uint32 {
	nmax := 5552
	if bug == "nmax-5803" {
		nmax = 5803
	}
	mod := func(x uint32) uint32 {
		switch bug {
		case "mod-65536":
			return x & 0xffff
		case "signed-remainder":
			return uint32(int32(x) % adlerBase)
		}
		return x % adlerBase
	}
	return func(p []byte) uint32 {
		a, b := uint32(1), uint32(0)
		var acc uint32 // the sum of 32·A over the blocks
		for len(p) > 0 {
			chunk := p[:min(len(p), nmax)]
			p = p[len(chunk):]
			for ; len(chunk) >= 32; chunk = chunk[32:] {
				s, w := adlerBlock(chunk[:32], bug)
				acc += 32 * a
				a += s
				b += w
			}
			for _, v := range chunk {
				a += uint32(v)
				b += a
			}
			a = mod(a)
			if bug == "unreduced-accumulator" {
				b = mod(b)
				continue
			}
			b, acc = mod(b+acc), 0
		}
		return mod(b+acc)<<16 | a
	}
}

// adlerBlock returns the sum of a 32-octet block and its weighted sum
// (the first octet counted 32 times, the last once): what the block adds
// to A, and to B beyond 32·A.
func adlerBlock(blk []byte, bug string) (s, w uint32) {
	var w16 uint16
	for i, v := range blk[:32] {
		s += uint32(v)
		w += uint32(32-i) * uint32(v)
		w16 += uint16(32-i) * uint16(v)
	}
	if bug == "weighted-sum-16bit" {
		return s, uint32(w16)
	}
	return s, w
}
