//go:build !purego

// Hand-written amd64 bodies of Mask and MaskCopy. They compute what
// xorKeyGeneric in websocket_generic.go computes:
//
//	dst[i] = src[i] ^ key[(pos+i)&3] for i < n = len(src); return (pos+n)&3
//
// with the key as a 32-bit little-endian word k rotated so that its low
// octet is the key octet of src[0] (k = bits.RotateLeft32(key, -8*(pos&3))).
// A block at offset o uses rotKey(k, o): k rotated right by 8*o bits.
//
// Lengths that are not a multiple of the block size are covered without
// byte loops: by blocks that overlap in MaskCopy's short path and at the
// edges of the long loops, and in Mask's short path (in place, up to 256
// octets) by pieces that do not overlap (INPLACE32, INPLACE256, below). In
// place (dst == src) overlapping blocks are safe because every block that
// overlaps another is loaded before either is stored, and an octet stored
// twice gets the same value twice. The long loops store their overlapping
// edges before the loop: a load that follows them soon, such as the next
// Mask of the same buffer in BenchmarkMask, waits for the store queue to
// drain up to them only, not to the end of the loop.
//
// Nothing outside src[:n] is read and nothing outside dst[:n] is written:
// every block and piece lies inside [0, n).

#include "textflag.h"

// Lengths at which the code switches paths. The widest stride is
// longAVX512's loop, 4 blocks of 64 octets.
//
//	n <= 32       1 to 4 general-purpose registers, straight-line (SHORT32)
//	32 < n <= 128 2 or 4 overlapping AVX2 blocks, straight-line (SHORT128)
//	128 < n       AVX2 loop over 32-octet blocks (longAVX2), or
//	320 < n       AVX-512 loop over 64-octet blocks (longAVX512)
//
// In place (dst == src: Mask, and the variants when given one slice twice)
// the short path is pieces that do not overlap, instead of overlapping
// blocks:
//
//	n <= 32        64-bit words, then 4-, 2- and 1-octet pieces (INPLACE32)
//	32 < n <= 256  32-octet AVX2 blocks, then 16-, 8-, 4-, 2- and 1-octet
//	               pieces (INPLACE256)
//	256 < n        the loops above
#define shortMax 128
#define inPlaceMax 256
#define avx512Min 320

// Payloads masked in place and longer than farMin, which does not fit in a
// Zen 5 core's 1 MiB L2 cache, run the long loops with software prefetch 1
// KiB ahead: 2 and 4 MiB 7-16% faster (AVX2 loop 5-14%), 512 KiB and 1 MiB
// level, while 64 KiB was 5-7% slower, which is why shorter payloads do
// without. MaskCopy (dst != src) does without too: 2 MiB 4-8% faster but 4
// MiB 9% slower, the prefetches of src competing with the stores to a
// second 4 MiB (bench's SweepMask and SweepMaskCopy, interleaved runs). The
// hints name only lines inside the payload.
#define farMin 1048576

// The functions Go calls (the entries) load their arguments into
// registers, store the return value and mask up to 32 octets themselves
// (xorKeyAVX2 up to 128), with the straight-line macros below; longer
// payloads go, by a jump that keeps the caller's return address, to the
// file-local bodies over32<>, longAVX2<> and longAVX512<>. The macros and
// those bodies take everything in registers:
//
//	DI = &dst[0], SI = &src[0], BX = n = len(src),
//	AX = k (low 32 bits), CX = 8*n
//
// with CX there so that RORL CX or RORQ CX gives rotKey(k, n), the key of
// blocks that end at n: ROR counts mod 32 or 64, and k repeats every 32
// bits.
//
// Mask's entry, xorKeyInPlace, takes one slice where the others take dst
// and src, so a call to Mask stores 5 argument words instead of 8, and up
// to 32 octets it jumps nowhere: 2.0-2.6 ns against 2.3-3.0 at 1 to 32
// octets when Mask called the two-slice dispatcher, which jumped to a
// shared short path (bench's SweepMask, one interleaved run). Its short
// path is INPLACE32, and from 33 to 256 octets INPLACE256 in inPlace<>:
// see below and xorKeyInPlace in websocket_amd64.go.

// KEYROT sets AX = k = bits.RotateLeft32(key, -8*(pos&3)) (RORL counts
// mod 32) and CX = 8*n, from AX = key, CX = pos and BX = n.
#define KEYROT \
	SHLL $3, CX; \
	RORL CX, AX; \
	MOVL BX, CX; \
	SHLL $3, CX

// KEY is KEYROT that also sets DX = (pos+n)&3, the return value.
#define KEY \
	LEAQ (CX)(BX*1), DX; \
	ANDQ $3, DX;         \
	KEYROT

// SHORT32 masks n <= 32 octets in general-purpose registers, as
// xorKeyGeneric does, and returns. Up to 32 octets they beat SSE: the key
// needs no broadcast, and a Mask of the same octets that follows soon gets
// its loads forwarded from these stores sooner (BenchmarkMask/size=16: 2.6
// ns against 3.4 ns with SSE). Each entry uses it once, so its labels are
// the entry's own.
#define SHORT32 \
	CMPQ BX, $4;                                                                   \
	JB   under4;                                                                   \
	/* AX = k | k<<32, the key of a 64-bit word at a multiple of 4 */              \
	MOVQ AX, DX;                                                                   \
	SHLQ $32, DX;                                                                  \
	ORQ  DX, AX;                                                                   \
	CMPQ BX, $8;                                                                   \
	JB   under8;                                                                   \
	CMPQ BX, $16;                                                                  \
	JA   over16;                                                                   \
	/* 8 <= n <= 16: 64-bit words at 0 and n-8 */                                  \
	MOVQ (SI), R8;                                                                 \
	MOVQ -8(SI)(BX*1), R9;                                                         \
	XORQ AX, R8;                                                                   \
	RORQ CX, AX;                                                                   \
	XORQ AX, R9;                                                                   \
	MOVQ R8, (DI);                                                                 \
	MOVQ R9, -8(DI)(BX*1);                                                         \
	RET;                                                                           \
over16:                                                                                \
	/* 16 < n <= 32: 64-bit words at 0, 8 and n-16, n-8 */                         \
	MOVQ (SI), R8;                                                                 \
	MOVQ 8(SI), R9;                                                                \
	MOVQ -16(SI)(BX*1), R10;                                                       \
	MOVQ -8(SI)(BX*1), R11;                                                        \
	XORQ AX, R8;                                                                   \
	XORQ AX, R9;                                                                   \
	RORQ CX, AX;                                                                   \
	XORQ AX, R10;                                                                  \
	XORQ AX, R11;                                                                  \
	MOVQ R8, (DI);                                                                 \
	MOVQ R9, 8(DI);                                                                \
	MOVQ R10, -16(DI)(BX*1);                                                       \
	MOVQ R11, -8(DI)(BX*1);                                                        \
	RET;                                                                           \
under8:                                                                                \
	/* 4 <= n < 8: 32-bit words at 0 and n-4 */                                    \
	MOVL (SI), R8;                                                                 \
	MOVL -4(SI)(BX*1), R9;                                                         \
	XORL AX, R8;                                                                   \
	RORQ CX, AX;                                                                   \
	XORL AX, R9;                                                                   \
	MOVL R8, (DI);                                                                 \
	MOVL R9, -4(DI)(BX*1);                                                         \
	RET;                                                                           \
under4:                                                                                \
	CMPQ BX, $2;                                                                   \
	JB   under2;                                                                   \
	/* 2 <= n < 4: a 16-bit word at 0; for 3, the octet at 2, key byte(k >> 16) */ \
	MOVWLZX (SI), R8;                                                              \
	XORL    AX, R8;                                                                \
	CMPQ    BX, $2;                                                                \
	JEQ     store2;                                                                \
	MOVBLZX 2(SI), R9;                                                             \
	SHRL    $16, AX;                                                               \
	XORL    AX, R9;                                                                \
	MOVB    R9, 2(DI);                                                             \
store2:                                                                                \
	MOVW R8, (DI);                                                                 \
	RET;                                                                           \
under2:                                                                                \
	/* n < 2 */                                                                    \
	TESTQ BX, BX;                                                                  \
	JZ    done;                                                                    \
	MOVB  (SI), R8;                                                                \
	XORB  AX, R8;                                                                  \
	MOVB  R8, (DI);                                                                \
done:                                                                                  \
	RET

// SHORT128 masks 32 < n <= 128 octets with 2 or 4 overlapping AVX2 blocks
// and returns. It requires AVX2.
#define SHORT128 \
	/* Y0 = k broadcast, the key of blocks at multiples of 4; Y1 = rotKey(k, n) */ \
	MOVL         AX, DX;                                                           \
	RORL         CX, DX;                                                           \
	VMOVD        AX, X0;                                                           \
	VPBROADCASTD X0, Y0;                                                           \
	VMOVD        DX, X1;                                                           \
	VPBROADCASTD X1, Y1;                                                           \
	CMPQ         BX, $64;                                                          \
	JA           over64;                                                           \
	/* 32 < n <= 64: 32-octet blocks at 0 and n-32 */                              \
	VPXOR   (SI), Y0, Y2;                                                          \
	VPXOR   -32(SI)(BX*1), Y1, Y3;                                                 \
	VMOVDQU Y2, (DI);                                                              \
	VMOVDQU Y3, -32(DI)(BX*1);                                                     \
	VZEROUPPER;                                                                    \
	RET;                                                                           \
over64:                                                                                \
	/* 64 < n <= 128: 32-octet blocks at 0, 32 and n-64, n-32 */                   \
	VPXOR   (SI), Y0, Y2;                                                          \
	VPXOR   32(SI), Y0, Y3;                                                        \
	VPXOR   -64(SI)(BX*1), Y1, Y4;                                                 \
	VPXOR   -32(SI)(BX*1), Y1, Y5;                                                 \
	VMOVDQU Y2, (DI);                                                              \
	VMOVDQU Y3, 32(DI);                                                            \
	VMOVDQU Y4, -64(DI)(BX*1);                                                     \
	VMOVDQU Y5, -32(DI)(BX*1);                                                     \
	VZEROUPPER;                                                                    \
	RET

// In place, a Mask of the same octets that follows soon (the next fragment
// of a stream masked into the same buffer, or BenchmarkSweepMask's loop)
// loads what this call stored. A load is forwarded from the store queue only
// when one store holds all its octets; one that spans two stores, as the
// overlapping blocks of SHORT32 and SHORT128 make it, waits until both have
// reached the cache: 4.2-5.2 ns at 5-7, 9-15, 17-31, 33-63, 65-95, 97-127
// and 129-255 octets against 2.1-3.3 ns at 1-4, 8, 16, 24, 32, 64, 96 and
// 128 (SweepMask, before INPLACE32 and INPLACE256; with them 2.1-2.6 ns at
// 1-32 octets, 2.8-3.4 at 33-128 and 3.3-4.4 at 129-256, aligned).
// INPLACE32 and INPLACE256 therefore cut the payload into pieces that do not
// overlap, so that each of the next call's loads is one of this call's
// stores: whole 64-bit words or 32-octet blocks from the start, then one
// piece per set bit of the rest, largest first. Every piece starts at a
// multiple of 4, whose key is k, except the last octet of an odd length,
// whose key is octet 2 of k when n&2 is set (it is then 2 past a multiple of
// 4) and octet 0 otherwise. Pieces of up to 8 octets are masked by one
// instruction, an XOR of a register into memory (in place, dst is src); the
// last three (n&7 octets) are addressed from the end of the payload, at
// offsets each value of n&7 fixes, after at most three tests. The price is a
// test and branch per piece, which a benchmark of one length always predicts
// and traffic of mixed lengths may not, and a store per piece: a length
// that needs more pieces than a longer one still takes a little longer (7
// octets, three stores, 2.24 ns against 8 octets, one store, 2.00; 255
// octets, seven blocks and five pieces, 4.4 ns against 3.9 at 256, eight
// blocks). MaskCopy keeps the overlapping blocks, whose loads come from src
// and never wait for this call's stores.
//
// Measured in the ways that did not work, on the same machine: AVX-512
// masked loads and stores (VMOVDQU8 with a mask from BZHI, one for up to 64
// octets) and AVX2 VPMASKMOVD are never forwarded to the next call's masked
// load, 4.8-5.0 ns at every length from 4 to 32, as slow as the overlapping
// blocks; 64-octet blocks (VMOVDQU64) for 129-256 octets made the time flat
// there but 0.3 ns slower at 129-160 aligned and 0.1-0.7 ns slower at every
// length one octet off, where each 64-octet store splits a cache line.

// INPLACE32 masks n <= 32 octets at DI in place (SI = DI) with disjoint
// pieces in general-purpose registers, as explained above, and returns. It
// is the short path of xorKeyInPlace and of the variants in place; each
// entry uses it once, so its labels are the entry's own. The pieces of n&7:
//
//	n&7  pieces (offsets from n)          n&7  pieces
//	7    32-bit -7, 16-bit -3, 8-bit -1   3    16-bit -3, 8-bit -1
//	6    32-bit -6, 16-bit -2             2    16-bit -2
//	5    32-bit -5, 8-bit -1              1    8-bit -1
//	4    32-bit -4                        0    none
#define INPLACE32 \
	/* n < 8: no word, only the pieces of n&7 */                            \
	CMPQ BX, $8;                                                            \
	JB   ipTree;                                                            \
	/* AX = k | k<<32, the key of a 64-bit word at a multiple of 4 */       \
	MOVQ AX, DX;                                                            \
	SHLQ $32, DX;                                                           \
	ORQ  DX, AX;                                                            \
	/* for o := 0; o+8 <= n; o += 8: the 64-bit word at o */                \
	XORQ AX, (DI);                                                          \
	CMPQ BX, $16;                                                           \
	JB   ipTail;                                                            \
	XORQ AX, 8(DI);                                                         \
	CMPQ BX, $24;                                                           \
	JB   ipTail;                                                            \
	XORQ AX, 16(DI);                                                        \
	CMPQ BX, $32;                                                           \
	JB   ipTail;                                                            \
	XORQ AX, 24(DI);                                                        \
	RET;                                                                    \
ipTail:                                                                         \
	TESTQ $7, BX;                                                           \
	JZ    ipIs0;                                                            \
ipTree:                                                                         \
	/* n&7 = 7, 6, 5 or 4: a 32-bit word first */                           \
	TESTQ $4, BX;                                                           \
	JZ    ipLt4;                                                            \
	TESTQ $2, BX;                                                           \
	JZ    ipIs45;                                                           \
	TESTQ $1, BX;                                                           \
	JZ    ipIs6;                                                            \
	/* 7: 32-, 16-bit words and the octet (key octet 2) at n-7, n-3, n-1 */ \
	XORL  AX, -7(DI)(BX*1);                                                 \
	XORW  AX, -3(DI)(BX*1);                                                 \
	SHRL  $16, AX;                                                          \
	XORB  AX, -1(DI)(BX*1);                                                 \
	RET;                                                                    \
ipIs6:                                                                          \
	XORL  AX, -6(DI)(BX*1);                                                 \
	XORW  AX, -2(DI)(BX*1);                                                 \
	RET;                                                                    \
ipIs45:                                                                         \
	TESTQ $1, BX;                                                           \
	JZ    ipIs4;                                                            \
	/* 5: the octet after the word has key octet 0 */                       \
	XORL  AX, -5(DI)(BX*1);                                                 \
	XORB  AX, -1(DI)(BX*1);                                                 \
	RET;                                                                    \
ipIs4:                                                                          \
	XORL  AX, -4(DI)(BX*1);                                                 \
	RET;                                                                    \
ipLt4:                                                                          \
	TESTQ $2, BX;                                                           \
	JZ    ipLt2;                                                            \
	TESTQ $1, BX;                                                           \
	JZ    ipIs2;                                                            \
	/* 3: a 16-bit word, then the octet with key octet 2 */                 \
	XORW  AX, -3(DI)(BX*1);                                                 \
	SHRL  $16, AX;                                                          \
	XORB  AX, -1(DI)(BX*1);                                                 \
	RET;                                                                    \
ipIs2:                                                                          \
	XORW  AX, -2(DI)(BX*1);                                                 \
	RET;                                                                    \
ipLt2:                                                                          \
	TESTQ $1, BX;                                                           \
	JZ    ipIs0;                                                            \
	XORB  AX, -1(DI)(BX*1);                                                 \
ipIs0:                                                                          \
	RET

// INPLACE256 masks 32 < n <= 256 octets at DI in place (SI = DI) with
// disjoint AVX2 blocks and pieces, as explained above, and returns; the
// pieces of n&7 as in INPLACE32. It requires AVX2.
#define INPLACE256 \
	/* Y0 = k broadcast, the key of every piece at a multiple of 4 */                   \
	VMOVD        AX, X0;                                                                \
	VPBROADCASTD X0, Y0;                                                                \
	/* for o := 0; o+32 <= n; o += 32: the block at o */                                \
	VPXOR   (DI), Y0, Y1;                                                               \
	VMOVDQU Y1, (DI);                                                                   \
	CMPQ    BX, $64;                                                                    \
	JB      ivTail;                                                                     \
	VPXOR   32(DI), Y0, Y1;                                                             \
	VMOVDQU Y1, 32(DI);                                                                 \
	CMPQ    BX, $96;                                                                    \
	JB      ivTail;                                                                     \
	VPXOR   64(DI), Y0, Y1;                                                             \
	VMOVDQU Y1, 64(DI);                                                                 \
	CMPQ    BX, $128;                                                                   \
	JB      ivTail;                                                                     \
	VPXOR   96(DI), Y0, Y1;                                                             \
	VMOVDQU Y1, 96(DI);                                                                 \
	CMPQ    BX, $160;                                                                   \
	JB      ivTail;                                                                     \
	VPXOR   128(DI), Y0, Y1;                                                            \
	VMOVDQU Y1, 128(DI);                                                                \
	CMPQ    BX, $192;                                                                   \
	JB      ivTail;                                                                     \
	VPXOR   160(DI), Y0, Y1;                                                            \
	VMOVDQU Y1, 160(DI);                                                                \
	CMPQ    BX, $224;                                                                   \
	JB      ivTail;                                                                     \
	VPXOR   192(DI), Y0, Y1;                                                            \
	VMOVDQU Y1, 192(DI);                                                                \
	CMPQ    BX, $256;                                                                   \
	JB      ivTail;                                                                     \
	VPXOR   224(DI), Y0, Y1;                                                            \
	VMOVDQU Y1, 224(DI);                                                                \
	VZEROUPPER;                                                                         \
	RET;                                                                                \
ivTail:                                                                                     \
	/* the n&31 octets after the blocks, if any */                                      \
	TESTQ   $31, BX;                                                                    \
	JZ      ivEnd;                                                                      \
	/* AX = k | k<<32; R10 = n&^31, where the 16 and 8 octets go */                     \
	VMOVQ   X0, AX;                                                                     \
	MOVQ    BX, R10;                                                                    \
	ANDQ    $-32, R10;                                                                  \
	/* if n&16 != 0: 16 octets */                                                       \
	TESTQ   $16, BX;                                                                    \
	JZ      ivNo16;                                                                     \
	VPXOR   (DI)(R10*1), X0, X1;                                                        \
	VMOVDQU X1, (DI)(R10*1);                                                            \
	ADDQ    $16, R10;                                                                   \
ivNo16:                                                                                     \
	/* if n&8 != 0: a 64-bit word */                                                    \
	TESTQ   $8, BX;                                                                     \
	JZ      ivNo8;                                                                      \
	XORQ    AX, (DI)(R10*1);                                                            \
ivNo8:                                                                                      \
	VZEROUPPER;                                                                         \
	/* then the pieces of n&7, from the end; n&7 = 7, 6, 5 or 4: a 32-bit word first */ \
	TESTQ $4, BX;                                                                       \
	JZ    ivLt4;                                                                        \
	TESTQ $2, BX;                                                                       \
	JZ    ivIs45;                                                                       \
	TESTQ $1, BX;                                                                       \
	JZ    ivIs6;                                                                        \
	/* 7: 32-, 16-bit words and the octet (key octet 2) at n-7, n-3, n-1 */             \
	XORL  AX, -7(DI)(BX*1);                                                             \
	XORW  AX, -3(DI)(BX*1);                                                             \
	SHRL  $16, AX;                                                                      \
	XORB  AX, -1(DI)(BX*1);                                                             \
	RET;                                                                                \
ivIs6:                                                                                      \
	XORL  AX, -6(DI)(BX*1);                                                             \
	XORW  AX, -2(DI)(BX*1);                                                             \
	RET;                                                                                \
ivIs45:                                                                                     \
	TESTQ $1, BX;                                                                       \
	JZ    ivIs4;                                                                        \
	/* 5: the octet after the word has key octet 0 */                                   \
	XORL  AX, -5(DI)(BX*1);                                                             \
	XORB  AX, -1(DI)(BX*1);                                                             \
	RET;                                                                                \
ivIs4:                                                                                      \
	XORL  AX, -4(DI)(BX*1);                                                             \
	RET;                                                                                \
ivLt4:                                                                                      \
	TESTQ $2, BX;                                                                       \
	JZ    ivLt2;                                                                        \
	TESTQ $1, BX;                                                                       \
	JZ    ivIs2;                                                                        \
	/* 3: a 16-bit word, then the octet with key octet 2 */                             \
	XORW  AX, -3(DI)(BX*1);                                                             \
	SHRL  $16, AX;                                                                      \
	XORB  AX, -1(DI)(BX*1);                                                             \
	RET;                                                                                \
ivIs2:                                                                                      \
	XORW  AX, -2(DI)(BX*1);                                                             \
	RET;                                                                                \
ivLt2:                                                                                      \
	TESTQ $1, BX;                                                                       \
	JZ    ivIs0;                                                                        \
	XORB  AX, -1(DI)(BX*1);                                                             \
ivIs0:                                                                                      \
	RET;                                                                                \
ivEnd:                                                                                      \
	VZEROUPPER;                                                                         \
	RET

// AVX2BLOCKS and AVX512BLOCKS mask the 4 aligned blocks at offset R9 with
// the key in Y2 or Z2: the bodies of the long loops.
#define AVX2BLOCKS \
	VPXOR   (SI)(R9*1), Y2, Y8;    \
	VPXOR   32(SI)(R9*1), Y2, Y9;  \
	VPXOR   64(SI)(R9*1), Y2, Y10; \
	VPXOR   96(SI)(R9*1), Y2, Y11; \
	VMOVDQU Y8, (DI)(R9*1);        \
	VMOVDQU Y9, 32(DI)(R9*1);      \
	VMOVDQU Y10, 64(DI)(R9*1);     \
	VMOVDQU Y11, 96(DI)(R9*1)

#define AVX512BLOCKS \
	VPXORD    (SI)(R9*1), Z2, Z8;     \
	VPXORD    64(SI)(R9*1), Z2, Z9;   \
	VPXORD    128(SI)(R9*1), Z2, Z10; \
	VPXORD    192(SI)(R9*1), Z2, Z11; \
	VMOVDQU64 Z8, (DI)(R9*1);         \
	VMOVDQU64 Z9, 64(DI)(R9*1);       \
	VMOVDQU64 Z10, 128(DI)(R9*1);     \
	VMOVDQU64 Z11, 192(DI)(R9*1)

// func xorKeyInPlace(b []byte, key uint32, pos int)
// Requires: AVX2 for 32 < len(b) when useAVX2 is set
//
// xorKeyInPlace is the body of Mask: xorKey(b, b, key, pos) without the
// result (Mask computes it), with the disjoint pieces of INPLACE32 and
// INPLACE256 for its short path. Without AVX2 it hands payloads over 32
// octets to xorKeyGenericInPlace.
TEXT ·xorKeyInPlace(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), DI
	MOVQ b_len+8(FP), BX
	MOVL key+24(FP), AX
	MOVQ pos+32(FP), CX
	MOVQ DI, SI
	KEYROT
	CMPQ BX, $32
	JA   over32
	INPLACE32

over32:
	CMPB ·useAVX2(SB), $0
	JEQ  generic
	JMP  ·inPlace<>(SB)

generic:
	JMP ·xorKeyGenericInPlace(SB)

// func xorKey(dst, src []byte, key uint32, pos int) int
// Requires: AVX2 for 32 < len(src) when useAVX2 is set
//
// xorKey is the body of MaskCopy (through xorKeyCopy), as xorKeyInPlace is
// Mask's. Without AVX2 it hands payloads over 32 octets to xorKeyGeneric.
TEXT ·xorKey(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), BX
	MOVL key+48(FP), AX
	MOVQ pos+56(FP), CX
	KEY
	MOVQ DX, ret+64(FP)
	CMPQ BX, $32
	JA   over32
	SHORT32

over32:
	CMPB ·useAVX2(SB), $0
	JEQ  generic
	JMP  ·over32<>(SB)

generic:
	JMP ·xorKeyGeneric(SB)

// over32<> is the dispatchers' path for n > 32 octets where useAVX2 is
// set: SHORT128 up to shortMax, then the loop useAVX512 chooses. Its
// operands are in registers (see above), and the dispatcher has stored the
// return value.
// Requires: AVX2
TEXT ·over32<>(SB), NOSPLIT, $0
	CMPQ BX, $shortMax
	JA   long
	SHORT128

long:
	CMPQ BX, $avx512Min
	JBE  avx2
	CMPB ·useAVX512(SB), $0
	JEQ  avx2
	JMP  ·longAVX512<>(SB)

avx2:
	JMP ·longAVX2<>(SB)

// inPlace<> is xorKeyInPlace's path for n > 32 octets where useAVX2 is set:
// INPLACE256 up to inPlaceMax, then the loop useAVX512 chooses. Its
// operands are in registers (see above), and the entry has stored the
// return value.
// Requires: AVX2
TEXT ·inPlace<>(SB), NOSPLIT, $0
	CMPQ BX, $inPlaceMax
	JA   long
	INPLACE256

long:
	CMPQ BX, $avx512Min
	JBE  avx2
	CMPB ·useAVX512(SB), $0
	JEQ  avx2
	JMP  ·longAVX512<>(SB)

avx2:
	JMP ·longAVX2<>(SB)

// func xorKeyCopy(dst, src []byte, key [4]byte, pos int) int
//
// xorKeyCopy is the body of MaskCopy: copyFault's two checks, in its
// order, then xorKey with the same arguments (key's 4 octets, read as a
// little-endian word, are xorKey's key). A failed check returns badShortDst
// (-2) or badOverlap (-1), and MaskCopy panics with its message.
TEXT ·xorKeyCopy(SB), NOSPLIT, $0-72
	MOVQ src_len+32(FP), BX
	CMPQ dst_len+8(FP), BX
	JLT  shortDst
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	CMPQ DI, SI
	JEQ  checked

	// Nothing overlaps an empty src; otherwise dst[:n] and src overlap
	// inexactly when d-s+(n-1) < 2n-1, unsigned, as in copyFault.
	TESTQ BX, BX
	JZ    checked
	SUBQ  SI, DI
	LEAQ  -1(DI)(BX*1), DI
	LEAQ  -1(BX)(BX*1), SI
	CMPQ  DI, SI
	JCS   overlap

checked:
	JMP ·xorKey(SB)

shortDst:
	MOVQ $-2, ret+64(FP)
	RET

overlap:
	MOVQ $-1, ret+64(FP)
	RET

// func xorKeyAVX2(dst, src []byte, key uint32, pos int) int
// Requires: AVX2
//
// xorKeyAVX2 works like xorKeyGeneric, without the length check: the
// caller guarantees len(dst) >= len(src), and that dst[:len(src)] is src or
// does not overlap it. It is the AVX2 variant on its own: the dispatchers'
// short paths, xorKeyInPlace's in place (dst == src) and xorKey's
// otherwise, then longAVX2<> whatever useAVX512 says.
TEXT ·xorKeyAVX2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), BX
	MOVL key+48(FP), AX
	MOVQ pos+56(FP), CX
	KEY
	MOVQ DX, ret+64(FP)
	CMPQ DI, SI
	JEQ  inPlace
	CMPQ BX, $32
	JA   over32
	SHORT32

over32:
	CMPQ BX, $shortMax
	JA   long
	SHORT128

inPlace:
	CMPQ BX, $32
	JA   inPlaceOver32
	INPLACE32

inPlaceOver32:
	CMPQ BX, $inPlaceMax
	JA   long
	INPLACE256

long:
	JMP ·longAVX2<>(SB)

// func xorKeyAVX512(dst, src []byte, key uint32, pos int) int
// Requires: AVX2, AVX512F
//
// xorKeyAVX512 works like xorKeyAVX2, with longAVX512<> for payloads longer
// than avx512Min.
TEXT ·xorKeyAVX512(SB), NOSPLIT, $0-72
	MOVQ src_len+32(FP), BX
	CMPQ BX, $avx512Min
	JA   long
	JMP  ·xorKeyAVX2(SB)

long:
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVL key+48(FP), AX
	MOVQ pos+56(FP), CX
	KEY
	MOVQ DX, ret+64(FP)
	JMP  ·longAVX512<>(SB)

// longAVX2<> masks n > shortMax octets with an AVX2 loop over 32-octet
// blocks, 4 a turn, whose stores are aligned to dst, and returns to the
// entry's caller. Its operands are in registers (see above); the entry has
// stored the return value.
// Requires: AVX2
TEXT ·longAVX2<>(SB), NOSPLIT, $0
	// Y0 = k, Y1 = rotKey(k, n) broadcast.
	MOVL         AX, DX
	RORL         CX, DX
	VMOVD        AX, X0
	VPBROADCASTD X0, Y0
	VMOVD        DX, X1
	VPBROADCASTD X1, Y1

	// R9 = o = 32 - &dst[0]&31, in [1, 32]: the first offset past 0 where
	// dst is 32-octet aligned; Y2 = rotKey(k, o), the key of every aligned
	// block.
	MOVQ         DI, R9
	ANDQ         $31, R9
	NEGQ         R9
	ADDQ         $32, R9
	MOVL         R9, CX
	SHLL         $3, CX
	RORL         CX, AX
	VMOVD        AX, X2
	VPBROADCASTD X2, Y2

	// R10 = e = o + 32*(m-1), with m = (n-o-1)/32: the offset of the
	// last of the m aligned blocks that fit in [o, n-1). n > 128 and
	// o <= 32 make m >= 3. With o and n-e-32 in [1, 32], the head [0, 32) and the
	// first aligned block, and the last aligned block and the tail, are
	// never the same block: an aligned payload is stored exactly once.
	LEAQ -1(BX), R10
	SUBQ R9, R10
	ANDQ $-32, R10
	ADDQ R9, R10
	SUBQ $32, R10

	// The edges, all loaded before any is stored: the head [0, 32), the
	// first aligned block [o, o+32), the last aligned block [e, e+32) and
	// the tail [n-32, n). The first two may overlap, and so may the last
	// two; the blocks in between overlap none of them.
	VPXOR   (SI), Y0, Y3
	VPXOR   (SI)(R9*1), Y2, Y4
	VPXOR   (SI)(R10*1), Y2, Y5
	VPXOR   -32(SI)(BX*1), Y1, Y6
	VMOVDQU Y3, (DI)
	VMOVDQU Y4, (DI)(R9*1)
	VMOVDQU Y5, (DI)(R10*1)
	VMOVDQU Y6, -32(DI)(BX*1)

	// The aligned blocks in between: for i := o+32; i+128 <= e; i += 128.
	// R11 = e - 128 may be negative: signed compares.
	ADDQ $32, R9
	LEAQ -128(R10), R11
	CMPQ R9, R11
	JGT  avx2Ones

	CMPQ BX, $farMin
	JBE  avx2Loop
	CMPQ DI, SI
	JNE  avx2Loop

	// In place beyond farMin, the same loop with prefetch hints 1 KiB
	// ahead (two per turn, one per cache line), while those lines are
	// still before the last aligned block: R12 = e - 1152, the last i for
	// which i+1024..i+1151 ends before e. The plain loop finishes the rest.
	LEAQ -1152(R10), R12

avx2Far:
	PREFETCHT0 1024(SI)(R9*1)
	PREFETCHT0 1088(SI)(R9*1)
	AVX2BLOCKS
	ADDQ       $128, R9
	CMPQ       R9, R12
	JLE        avx2Far

avx2Loop:
	AVX2BLOCKS
	ADDQ $128, R9
	CMPQ R9, R11
	JLE  avx2Loop

avx2Ones:
	// for ; i < e; i += 32: at most 3 blocks.
	CMPQ R9, R10
	JGE  avx2Done

avx2One:
	VPXOR   (SI)(R9*1), Y2, Y8
	VMOVDQU Y8, (DI)(R9*1)
	ADDQ    $32, R9
	CMPQ    R9, R10
	JLT     avx2One

avx2Done:
	VZEROUPPER
	RET

// longAVX512<> is longAVX2<> with 64-octet blocks, 4 a turn, for
// n > avx512Min (it needs at least 4 aligned blocks).
// Requires: AVX512F
TEXT ·longAVX512<>(SB), NOSPLIT, $0
	// Z0 = k, Z1 = rotKey(k, n) broadcast.
	MOVL         AX, DX
	RORL         CX, DX
	VPBROADCASTD AX, Z0
	VPBROADCASTD DX, Z1

	// R9 = o = 64 - &dst[0]&63, in [1, 64]: the first offset past 0 where
	// dst is cache-line aligned; Z2 = rotKey(k, o), the key of every
	// aligned block.
	MOVQ         DI, R9
	ANDQ         $63, R9
	NEGQ         R9
	ADDQ         $64, R9
	MOVL         R9, CX
	SHLL         $3, CX
	RORL         CX, AX
	VPBROADCASTD AX, Z2

	// R10 = e = o + 64*(m-1), with m = (n-o-1)/64: the offset of the
	// last of the m aligned blocks that fit in [o, n-1). n > 320 and
	// o <= 64 make m >= 4. As in xorKeyAVX2, an aligned payload is stored
	// exactly once.
	LEAQ -1(BX), R10
	SUBQ R9, R10
	ANDQ $-64, R10
	ADDQ R9, R10
	SUBQ $64, R10

	// The edges, all loaded before any is stored: the head [0, 64), the
	// first aligned block [o, o+64), the last aligned block [e, e+64) and
	// the tail [n-64, n). The first two may overlap, and so may the last
	// two; the blocks in between overlap none of them.
	VPXORD    (SI), Z0, Z3
	VPXORD    (SI)(R9*1), Z2, Z4
	VPXORD    (SI)(R10*1), Z2, Z5
	VPXORD    -64(SI)(BX*1), Z1, Z6
	VMOVDQU64 Z3, (DI)
	VMOVDQU64 Z4, (DI)(R9*1)
	VMOVDQU64 Z5, (DI)(R10*1)
	VMOVDQU64 Z6, -64(DI)(BX*1)

	// The aligned blocks in between: for i := o+64; i+256 <= e; i += 256.
	// R11 = e - 256 may be negative: signed compares.
	ADDQ $64, R9
	LEAQ -256(R10), R11
	CMPQ R9, R11
	JGT  avx512Ones

	CMPQ BX, $farMin
	JBE  avx512Loop
	CMPQ DI, SI
	JNE  avx512Loop

	// In place beyond farMin, the same loop with prefetch hints 1 KiB
	// ahead (one per cache line), as in longAVX2<>: R12 = e - 1280, the
	// last i for which i+1024..i+1279 ends before e.
	LEAQ -1280(R10), R12

avx512Far:
	PREFETCHT0 1024(SI)(R9*1)
	PREFETCHT0 1088(SI)(R9*1)
	PREFETCHT0 1152(SI)(R9*1)
	PREFETCHT0 1216(SI)(R9*1)
	AVX512BLOCKS
	ADDQ       $256, R9
	CMPQ       R9, R12
	JLE        avx512Far

avx512Loop:
	AVX512BLOCKS
	ADDQ $256, R9
	CMPQ R9, R11
	JLE  avx512Loop

avx512Ones:
	// for ; i < e; i += 64: at most 3 blocks.
	CMPQ R9, R10
	JGE  avx512Done

avx512One:
	VPXORD    (SI)(R9*1), Z2, Z8
	VMOVDQU64 Z8, (DI)(R9*1)
	ADDQ      $64, R9
	CMPQ      R9, R10
	JLT       avx512One

avx512Done:
	VZEROUPPER
	RET
