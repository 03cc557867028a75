//go:build !purego

#include "textflag.h"

// Both kernels compute, for the 64-bit lanes of their vectors, the sum of
// the two 32-bit halves of every little-endian qword x they load, with only
// three vector operations per vector (one add fewer than masking out the low
// halves), using two accumulators per lane:
//
//	s += x       // modulo 2^64: wraps
//	h += x >> 32 // exact
//
// At the end lo := s - h<<32 (modulo 2^64) is exactly the sum of uint32(x),
// because that sum is below 2^64: len(p) <= maxChunk = 2^30 bytes gives at
// most 2^24 + 2 qwords per lane (counting the AVX-512 kernel's partial
// blocks at both ends), so lo and h stay below 2^57. The lane's result is
// lo + h, and adding the lanes gives less than 2 * 8 * 2^57 = 2^61. That is
// the sum of the little-endian 32-bit words of p, ≡ the sum of its 16-bit
// words (mod 0xFFFF) because 2^16 ≡ 1, and zero only if p is all zero.
//
// Several (s, h) pairs are unrolled so that consecutive vectors do not wait
// on each other's adds; they are merged lane-wise before the reduction.

// func sumKernelAVX2(p []byte) uint64
// Requires: AVX, AVX2
TEXT ·sumKernelAVX2(SB), NOSPLIT, $0-32
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), CX

	// var s0, s1, s2, s3, h0, h1, h2, h3 [4]uint64 (Y0-Y3, Y4-Y7)
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7

	CMPQ CX, $128
	JB   avx2Check32

avx2Loop128:
	// for len(p) >= 128 { x0..x3 := 4 vectors of 4 qwords; p = p[128:] }
	VMOVDQU 0(SI), Y8
	VMOVDQU 32(SI), Y9
	VMOVDQU 64(SI), Y10
	VMOVDQU 96(SI), Y11

	// s0 += x0; s1 += x1; s2 += x2; s3 += x3
	VPADDQ Y8, Y0, Y0
	VPADDQ Y9, Y1, Y1
	VPADDQ Y10, Y2, Y2
	VPADDQ Y11, Y3, Y3

	// h0 += x0 >> 32; h1 += x1 >> 32; h2 += x2 >> 32; h3 += x3 >> 32
	VPSRLQ $32, Y8, Y8
	VPSRLQ $32, Y9, Y9
	VPSRLQ $32, Y10, Y10
	VPSRLQ $32, Y11, Y11
	VPADDQ Y8, Y4, Y4
	VPADDQ Y9, Y5, Y5
	VPADDQ Y10, Y6, Y6
	VPADDQ Y11, Y7, Y7

	ADDQ $128, SI
	SUBQ $128, CX
	CMPQ CX, $128
	JAE  avx2Loop128

avx2Check32:
	CMPQ CX, $32
	JB   avx2Reduce

avx2Loop32:
	// for len(p) >= 32 { x := 4 qwords; s0 += x; h0 += x >> 32; p = p[32:] }
	VMOVDQU (SI), Y8
	VPADDQ  Y8, Y0, Y0
	VPSRLQ  $32, Y8, Y8
	VPADDQ  Y8, Y4, Y4
	ADDQ    $32, SI
	SUBQ    $32, CX
	CMPQ    CX, $32
	JAE     avx2Loop32

avx2Reduce:
	// s := s0 + s1 + s2 + s3; h := h0 + h1 + h2 + h3 (lane-wise)
	VPADDQ Y1, Y0, Y0
	VPADDQ Y3, Y2, Y2
	VPADDQ Y2, Y0, Y0
	VPADDQ Y5, Y4, Y4
	VPADDQ Y7, Y6, Y6
	VPADDQ Y6, Y4, Y4

	// t := s - h<<32 + h (lane-wise: low halves' sum plus high halves' sum)
	VPSLLQ $32, Y4, Y1
	VPSUBQ Y1, Y0, Y0
	VPADDQ Y4, Y0, Y0

	// return t[0] + t[1] + t[2] + t[3]
	VEXTRACTI128 $1, Y0, X1
	VPADDQ       X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPADDQ       X1, X0, X0
	VMOVQ        X0, AX
	MOVQ         AX, ret+24(FP)
	VZEROUPPER
	RET

// func sumKernelAVX512(p []byte) uint64
// Requires: AVX, AVX512BW, AVX512F
//
// Inputs of 256 bytes or more are read in 64-byte-aligned blocks, so that
// no load straddles two cache lines (which halves the load rate at odd
// offsets): the aligned block holding p[0] and the one holding the last
// byte are loaded with byte masks that keep exactly the bytes of p. Masked-
// off bytes are not read at all (faults there are suppressed), so the
// kernel never reads outside p. Summing at absolute alignment is exact up to
// a byte swap when p starts at an odd address (RFC 1071 §2(B)), which the
// end undoes. Shorter inputs are read from p itself: 64-byte blocks at
// offsets 0, 64 and 128 (which may straddle lines) and the last 1 to 63
// bytes with a masked load. For one to three blocks that beats the aligned
// head's masked load and realignment: 4.2 against 4.5-4.9 ns at 64 bytes,
// 4.5-4.8 against 4.8-5.4 at 128-192 one byte off (bench/sweep_test.go,
// one interleaved run).
TEXT ·sumKernelAVX512(SB), NOSPLIT, $0-32
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), BX

	// var s0, h0 [8]uint64 (Z0, Z4)
	VPXORQ Z0, Z0, Z0
	VPXORQ Z4, Z4, Z4

	// odd := false (DX bit 0). Inputs under 64 bytes are one masked load
	// of p itself, inputs under 256 whole blocks of p and a masked tail:
	// one pair of accumulators is enough for them.
	XORL DX, DX
	CMPQ BX, $64
	JB   avx512Tail
	CMPQ BX, $256
	JB   avx512Loop64

	// var s1, s2, s3, h1, h2, h3 [8]uint64 (Z1-Z3, Z5-Z7) for the
	// 256-byte loop, merged into s0 and h0 after it.
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7

	// off := addr(p) % 64; odd = off&1 == 1
	// x := the aligned block holding p[0], bytes before p zeroed
	// s2 += x; h2 += x >> 32; p = the rest of p, now 64-byte aligned
	MOVQ  SI, CX
	ANDQ  $63, CX
	MOVQ  CX, DX
	SUBQ  CX, SI      // SI = addr(p) - off, aligned
	ADDQ  CX, BX      // BX = len(p) + off, bytes from SI to the end of p
	MOVQ  $-1, AX
	SHLQ  CX, AX      // AX = ^0 << off: the block's bytes off..63
	KMOVQ AX, K1
	VMOVDQU8.Z (SI), K1, Z8
	VPADDQ     Z8, Z2, Z2
	VPSRLQ     $32, Z8, Z8
	VPADDQ     Z8, Z6, Z6
	ADDQ       $64, SI
	SUBQ       $64, BX // BX = len(p) - (64 - off) >= 0

	CMPQ BX, $256
	JB   avx512Merge

avx512Loop256:
	// for len(p) >= 256 { x0..x3 := 4 vectors of 8 qwords; p = p[256:] }
	VMOVDQU64 0(SI), Z8
	VMOVDQU64 64(SI), Z9
	VMOVDQU64 128(SI), Z10
	VMOVDQU64 192(SI), Z11

	// s0 += x0; s1 += x1; s2 += x2; s3 += x3
	VPADDQ Z8, Z0, Z0
	VPADDQ Z9, Z1, Z1
	VPADDQ Z10, Z2, Z2
	VPADDQ Z11, Z3, Z3

	// h0 += x0 >> 32; h1 += x1 >> 32; h2 += x2 >> 32; h3 += x3 >> 32
	VPSRLQ $32, Z8, Z8
	VPSRLQ $32, Z9, Z9
	VPSRLQ $32, Z10, Z10
	VPSRLQ $32, Z11, Z11
	VPADDQ Z8, Z4, Z4
	VPADDQ Z9, Z5, Z5
	VPADDQ Z10, Z6, Z6
	VPADDQ Z11, Z7, Z7

	ADDQ $256, SI
	SUBQ $256, BX
	CMPQ BX, $256
	JAE  avx512Loop256

avx512Merge:
	// s0 += s1 + s2 + s3; h0 += h1 + h2 + h3 (lane-wise)
	VPADDQ Z1, Z0, Z0
	VPADDQ Z3, Z2, Z2
	VPADDQ Z2, Z0, Z0
	VPADDQ Z5, Z4, Z4
	VPADDQ Z7, Z6, Z6
	VPADDQ Z6, Z4, Z4

avx512Check64:
	CMPQ BX, $64
	JB   avx512Tail

avx512Loop64:
	// for len(p) >= 64 { x := 8 qwords; s0 += x; h0 += x >> 32; p = p[64:] }
	VMOVDQU64 (SI), Z8
	VPADDQ    Z8, Z0, Z0
	VPSRLQ    $32, Z8, Z8
	VPADDQ    Z8, Z4, Z4
	ADDQ      $64, SI
	SUBQ      $64, BX
	CMPQ      BX, $64
	JAE       avx512Loop64

avx512Tail:
	// if len(p) > 0 { x := p zero-padded to 64 bytes; s0 += x; h0 += x >> 32 }
	TESTQ BX, BX
	JZ    avx512Reduce
	MOVQ  BX, CX
	MOVQ  $-1, AX
	SHLQ  CX, AX      // AX = ^0 << len(p), 0 < len(p) < 64
	NOTQ  AX          // AX = 1<<len(p) - 1: one bit per byte of p
	KMOVQ AX, K1
	VMOVDQU8.Z (SI), K1, Z8
	VPADDQ     Z8, Z0, Z0
	VPSRLQ     $32, Z8, Z8
	VPADDQ     Z8, Z4, Z4

avx512Reduce:
	// t := s0 - h0<<32 + h0 (lane-wise: low halves' sum plus high halves' sum)
	VPSLLQ $32, Z4, Z1
	VPSUBQ Z1, Z0, Z0
	VPADDQ Z4, Z0, Z0

	// sum := t[0] + ... + t[7]: fold 512 -> 256 -> 128 -> 64 bits. Only
	// the low lanes matter after each step; the others hold junk.
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDQ        Z1, Z0, Z0
	VEXTRACTI32X4 $1, Z0, X1
	VPADDQ        Z1, Z0, Z0
	VPSHUFD       $0x4e, Z0, Z1
	VPADDQ        Z1, Z0, Z0
	VMOVQ         X0, AX

	// if odd { sum = bits.RotateLeft64(sum, 8) }
	// The words were summed with their bytes swapped; rotating by 8 bits
	// multiplies by 2^8 modulo 2^64-1, a multiple of 0xFFFF, which is the
	// RFC 1071 §2(B) swap: exact mod 0xFFFF, and zero only if sum is.
	MOVQ    AX, CX
	ROLQ    $8, CX
	TESTQ   $1, DX
	CMOVQNE CX, AX
	MOVQ    AX, ret+24(FP)
	VZEROUPPER
	RET
