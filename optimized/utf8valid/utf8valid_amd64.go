//go:build !purego

package utf8valid

import (
	"encoding/binary"

	"golang.org/x/sys/cpu"
)

// useAVX2 and useAVX512 say, once, which SIMD kernels this CPU may run,
// and best is the one Valid and the zero Validator run. They are read
// only after initialization.
var (
	useAVX2, useAVX512 = kernels(cpu.X86.HasAVX2, cpu.X86.HasAVX512F, cpu.X86.HasAVX512BW)
	best               = bestOf(useAVX2, useAVX512)
)

// kernels says which SIMD kernels a CPU with the given features may run:
// AVX2 needs AVX2; AVX-512 needs AVX512F and AVX512BW (its octet shuffles,
// compares and masked loads are AVX512BW) and, so that GODEBUG=cpu.avx2=off
// turns off every wide kernel as optimized/websocket's does, AVX2. It is a
// pure function of the feature bits, so that a test can try every
// combination on any machine.
func kernels(hasAVX2, hasAVX512F, hasAVX512BW bool) (avx2, avx512 bool) {
	return hasAVX2, hasAVX2 && hasAVX512F && hasAVX512BW
}

// bestOf returns the kernel dispatch runs with these flags.
func bestOf(avx2, avx512 bool) kernel {
	switch {
	case avx512:
		return kernelAVX512
	case avx2:
		return kernelAVX2
	}
	return kernelGeneric
}

// archImpl returns the SIMD variant name, running kernel k.
func archImpl(name string, k kernel) Impl {
	impl := Impl{Name: name, NewValidator: newValidator(k)}
	switch k {
	case kernelAVX512:
		impl.Available, impl.Valid = useAVX512, validAVX512
	case kernelAVX2:
		impl.Available, impl.Valid = useAVX2, validAVX2
	}
	return impl
}

// blocks runs the SIMD kernel k (kernelAVX512 or kernelAVX2) over p after
// the window ctx: the offset of the first block that fails, or len(p),
// for settle. It is inlined into Write, which then makes one call, to
// scanBlocks, which jumps to the kernel (TestInlined).
func blocks(k kernel, p []byte, ctx uint32) int {
	return scanBlocks(p, ctx, k)
}

// unmaskBlocks is blocks fused with masking b in place with the key word
// key.
func unmaskBlocks(k kernel, b []byte, key uint32, ctx uint32) int {
	return unmaskBlocksAsm(b, key, ctx, k)
}

// valid is kernel k's Valid. Up to 15 octets it runs in Go whatever the
// kernel, which at these lengths beats the latency of a SIMD kernel's one
// block (about 25 cycles) and saves the call into assembly: 2 to 4 octets
// by the automaton's steps written out (valid23, valid4), 5 to 15 octets
// ASCII checked with two loads, anything else by four steps written out
// over the first four octets (steps4) and the automaton over the rest
// (run, inlined, a test at the end only). Written out, 2 to 4 octets of
// text that is not ASCII take 3.9-5.2 ns instead of 5.0-6.4, below
// unicode/utf8.Valid's 4.5-6.8 (10th percentiles, docs/performance.md);
// 5 to 15 octets pay the one more length test, 0.15-0.5 ns, and text
// that is not ASCII takes 7.9 ns instead of 8.6 with the first four steps
// written out. From 16 to 31
// octets ASCII is tested first in Go with four loads: ASCII text of those
// lengths took about twice as long through the kernel, whose call and
// return cost more than its block, and other text pays the four loads,
// about 1 ns (3% at 16-31 octets, docs/performance.md). The variants'
// Valid functions do the same.
func valid(k kernel, b []byte) bool {
	// n <= 15 and n >= 5, not n < 16 and n > 4 (the same code): their
	// boundary mutants then change what runs (15 octets reach asciiMid,
	// whose loads panic; 5 octets that are not ASCII are refused), where
	// n <= 16 and n >= 4 changed nothing (docs/mutation.md).
	if n := len(b); n <= 15 {
		if uint(n-2) < 3 {
			if n == 4 {
				return valid4(binary.LittleEndian.Uint32(b))
			}
			return valid23(b)
		}
		if asciiShort(b) {
			return true
		}
		if n >= 5 {
			return run(steps4(sAccept, binary.LittleEndian.Uint32(b)), b[4:])&63 == sAccept
		}
		return false
	}
	if len(b) < 32 && asciiMid(b) {
		return true
	}
	switch k {
	case kernelAVX512:
		return validAVX512Asm(b)
	case kernelAVX2:
		// validAVX2Blocks' test, written here: a call fewer, and with
		// len(b) >= 16 the last three octets need no window.
		n := len(b)
		return scanAVX2(b, 0, kernelAVX2) == n && !incomplete(uint32(b[n-3])|uint32(b[n-2])<<8|uint32(b[n-1])<<16)
	}
	return validScan(b)
}

// validGeneric is the generic kernel's Valid, valid's code with that
// kernel: the short paths, then scanGeneric (validScan). It works like
// reference/utf8valid.Valid.
func validGeneric(b []byte) bool {
	return valid(kernelGeneric, b)
}

// validAVX512 works like validGeneric: up to 15 octets, and ASCII up to
// 31, in Go, as valid says, the rest with validAVX512Asm.
func validAVX512(b []byte) bool {
	if n := len(b); n <= 15 {
		if uint(n-2) < 3 {
			if n == 4 {
				return valid4(binary.LittleEndian.Uint32(b))
			}
			return valid23(b)
		}
		if asciiShort(b) {
			return true
		}
		if n >= 5 {
			return run(steps4(sAccept, binary.LittleEndian.Uint32(b)), b[4:])&63 == sAccept
		}
		return false
	}
	if len(b) < 32 && asciiMid(b) {
		return true
	}
	return validAVX512Asm(b)
}

// validAVX2 works like validGeneric: up to 15 octets, and ASCII up to
// 31, in Go, as valid says, the rest with validAVX2Blocks.
func validAVX2(b []byte) bool {
	if n := len(b); n <= 15 {
		if uint(n-2) < 3 {
			if n == 4 {
				return valid4(binary.LittleEndian.Uint32(b))
			}
			return valid23(b)
		}
		if asciiShort(b) {
			return true
		}
		if n >= 5 {
			return run(steps4(sAccept, binary.LittleEndian.Uint32(b)), b[4:])&63 == sAccept
		}
		return false
	}
	if len(b) < 32 && asciiMid(b) {
		return true
	}
	return validAVX2Blocks(b)
}

// validAVX2Blocks works like validGeneric: the kernel's blocks must pass,
// and the text must not end inside a UTF8-char (nor with C0, C1 or F5-FF,
// which incomplete counts as first octets).
func validAVX2Blocks(b []byte) bool {
	return scanAVX2(b, 0, kernelAVX2) == len(b) && !incomplete(window3(0, b, len(b)))
}

// scanBlocks jumps to scanAVX512 if k is kernelAVX512, else to scanAVX2,
// which take the same arguments (and ignore k).
//
//go:noescape
func scanBlocks(p []byte, ctx uint32, k kernel) int

// unmaskBlocksAsm jumps to unmaskAVX512 if k is kernelAVX512, else to
// unmaskAVX2.
//
//go:noescape
func unmaskBlocksAsm(b []byte, key uint32, ctx uint32, k kernel) int

// scanAVX512 checks p, after the window ctx, in blocks of 64 octets (the
// last one loaded under a mask), and returns len(p) if every block passes,
// else the offset of the first block that fails: the result settle wants.
// It ignores k, which is scanBlocks'.
//
//go:noescape
func scanAVX512(p []byte, ctx uint32, _ kernel) int

// validAVX512Asm works like validGeneric: scanAVX512's blocks, and a last
// block that also flags a text that ends inside a UTF8-char.
//
//go:noescape
func validAVX512Asm(b []byte) bool

// unmaskAVX512 is scanAVX512 fused with masking: it XORs each block of b
// with the key word k broadcast, stores it and checks it; after a block
// fails it only unmasks the rest.
//
//go:noescape
func unmaskAVX512(b []byte, k uint32, ctx uint32, _ kernel) int

// scanAVX2 is scanAVX512 with blocks of 32 octets; the last one is copied
// to a zeroed buffer on the stack, as AVX2 has no masked octet loads.
//
//go:noescape
func scanAVX2(p []byte, ctx uint32, _ kernel) int

// unmaskAVX2 is unmaskAVX512 with blocks of 32 octets.
//
//go:noescape
func unmaskAVX2(b []byte, k uint32, ctx uint32, _ kernel) int
