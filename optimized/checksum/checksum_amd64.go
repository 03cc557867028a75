//go:build !purego

package checksum

import "golang.org/x/sys/cpu"

// CPU features, read once through golang.org/x/sys/cpu, so that GODEBUG
// selects a fallback: cpu.avx512f=off (or avx512bw) the AVX2 kernel,
// cpu.avx2=off or cpu.all=off the generic code. The AVX-512 kernel also
// uses VEX-encoded AVX2 instructions on Y registers, so it needs AVX2 as
// well: turning AVX2 off turns off every vector kernel, as it does in
// optimized/websocket.
var (
	cpuFeatures = features{avx2: cpu.X86.HasAVX2, avx512f: cpu.X86.HasAVX512F, avx512bw: cpu.X86.HasAVX512BW}
	hasAVX512   = cpuFeatures.avx512()
)

// features are the CPU features the variants need, as
// golang.org/x/sys/cpu reports them.
type features struct{ avx2, avx512f, avx512bw bool }

// avx512 reports whether a CPU with f may run the AVX-512 kernel: it needs
// AVX512F, AVX512BW and, for its VEX-encoded Y-register instructions, AVX2.
func (f features) avx512() bool { return f.avx2 && f.avx512f && f.avx512bw }

// impls lists the variants of this build, best first.
func impls() []Impl { return implsFor(cpuFeatures) }

// implsFor lists the variants of this build, best first, available as a
// CPU with f allows.
func implsFor(f features) []Impl {
	return []Impl{
		{Name: "avx512", Available: f.avx512(), Sum: sumAVX512},
		{Name: "avx2", Available: f.avx2, Sum: sumAVX2},
		{Name: "generic", Available: true, Sum: sumGeneric},
	}
}

// sumAVX512 works like sumGeneric. It requires AVX512F and AVX512BW.
//
// The kernel sums whole inputs, tail included (with a masked load), so this
// wrapper only splits inputs longer than maxChunk to keep the kernel within
// its overflow bound, adds initial, folds, and swaps to big-endian order.
func sumAVX512(b []byte, initial uint16) uint16 {
	acc := uint64(swap16(initial))
	for len(b) != 0 {
		n := min(len(b), maxChunk)
		acc = addEAC(acc, sumKernelAVX512(b[:n]))
		b = b[n:]
	}
	return swap16(fold64(acc))
}

// sumAVX2 works like sumGeneric. It requires AVX2.
//
// The kernel sums the 32-byte blocks, in chunks of at most maxChunk bytes
// (its overflow bound); the last 0-31 bytes, at an even offset, are summed
// by sumTail, in plain Go. Nothing here goes through Sum's dispatch, so the
// variant is checked on its own.
func sumAVX2(b []byte, initial uint16) uint16 {
	acc := uint64(swap16(initial))
	blocks, tail := b[:len(b)&^31], b[len(b)&^31:]
	for len(blocks) != 0 {
		n := min(len(blocks), maxChunk) &^ 31
		acc = addEAC(acc, sumKernelAVX2(blocks[:n]))
		blocks = blocks[n:]
	}
	return swap16(fold64(addEAC(acc, sumTail(tail))))
}

// sumKernelAVX512 returns a value ≡ the sum of the little-endian 16-bit
// words of p (mod 0xFFFF), an odd last byte being the low byte of its word;
// the value is zero only if p is all zero. len(p) must be at most maxChunk.
// It reads no byte outside p: the partial blocks at both ends are read with
// masked loads.
//
//go:noescape
func sumKernelAVX512(p []byte) uint64

// sumKernelAVX2 returns the exact integer sum of the little-endian 32-bit
// words of p[:len(p)&^31], like sumKernelAVX512 but ignoring the last
// len(p)%32 bytes. len(p) must be at most maxChunk.
//
//go:noescape
func sumKernelAVX2(p []byte) uint64

// sumVector returns sumKernelAVX512(b) and true when AVX-512 is the variant
// chosen at init (so sumLarge is sumAVX512) and b needs no chunking, and
// false otherwise. Sum inlines it to call the kernel without going through
// sumLarge and sumAVX512; the result is the one sumAVX512 would compute.
func sumVector(b []byte) (uint64, bool) {
	if hasAVX512 && len(b) <= maxChunk {
		return sumKernelAVX512(b), true
	}
	return 0, false
}
