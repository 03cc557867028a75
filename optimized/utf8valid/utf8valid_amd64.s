//go:build !purego

// Hand-written amd64 kernels of Valid, Write and Unmask: the lookup method
// of Keiser and Lemire (lookup.go has the tables and the argument), over
// blocks of 64 octets (AVX-512) or 32 (AVX2). For every octet c of a block,
// with p1, p2, p3 the three octets before it (from the previous block, or
// from the window ctx for the first block), they compute, as
// TestLookupModel's model does in Go:
//
//	special := lookup[0][p1>>4] & lookup[1][p1&15] & lookup[2][c>>4]
//	must := 0x80 if p2 >= 0xE0 || p3 >= 0xF0, else 0
//	flagged := special != must
//
// and return at the first block with a flagged octet, its offset; or
// len(p) when no block has one. settle (utf8valid_generic.go) turns that
// into the exact octet with the automaton, re-scanning that block only.
//
// A block of only ASCII octets is flagged exactly when the previous block
// ends inside a UTF8-char (its first octet is then flagged, and only the
// first three can be): the kernels test that with one compare of the
// previous block against incompleteT instead of the lookups.
//
// Nothing outside p[:len(p)] is read or written: the last block, shorter
// than 64 octets, is loaded (and, by Unmask, stored) under a mask of its
// octets (AVX512BW masked moves do not touch the masked-out octets, so
// they do not fault past the end of the text); AVX2 copies it to a buffer
// on the stack and back, octets 0..r-1 with moves that overlap, never
// beyond. Octets past the text in a block are checked as zeros (AVX-512) or
// whatever the buffer holds (AVX2), and the flags of those positions are
// dropped: a flag depends only on the octet and the three before it.

#include "textflag.h"

// kernelAVX512 is the Go constant of that name (TestKernels checks it).
#define kernelAVX512 3

// func scanBlocks(p []byte, ctx uint32, k kernel) int
// Requires: AVX512F, AVX512BW if k is kernelAVX512, else AVX2
//
// scanBlocks is the Go code's one call into the SIMD kernels of Write: it
// jumps, keeping its caller's return address and arguments, to
// scanAVX512 or scanAVX2, whose arguments are its own.
TEXT ·scanBlocks(SB), NOSPLIT, $0-40
	CMPB k+28(FP), $kernelAVX512
	JEQ  avx512
	JMP  ·scanAVX2(SB)

avx512:
	JMP ·scanAVX512(SB)

// func unmaskBlocksAsm(b []byte, key uint32, ctx uint32, k kernel) int
// Requires: AVX512F, AVX512BW if k is kernelAVX512, else AVX2
//
// unmaskBlocksAsm is scanBlocks for Unmask.
TEXT ·unmaskBlocksAsm(SB), NOSPLIT, $0-48
	CMPB k+32(FP), $kernelAVX512
	JEQ  avx512
	JMP  ·unmaskAVX2(SB)

avx512:
	JMP ·unmaskAVX512(SB)

// incompleteT: an octet of the previous block above its entry here means
// the block ends inside a UTF8-char: p1 >= 0xC0 (octet 63), p2 >= 0xE0
// (octet 62) or p3 >= 0xF0 (octet 61). The other entries are 0xFF, which no
// octet is above. AVX2 uses its last 32 octets.
DATA incompleteT<>+0x00(SB)/8, $0xffffffffffffffff
DATA incompleteT<>+0x08(SB)/8, $0xffffffffffffffff
DATA incompleteT<>+0x10(SB)/8, $0xffffffffffffffff
DATA incompleteT<>+0x18(SB)/8, $0xffffffffffffffff
DATA incompleteT<>+0x20(SB)/8, $0xffffffffffffffff
DATA incompleteT<>+0x28(SB)/8, $0xffffffffffffffff
DATA incompleteT<>+0x30(SB)/8, $0xffffffffffffffff
DATA incompleteT<>+0x38(SB)/8, $0xbfdfefffffffffff
GLOBL incompleteT<>(SB), RODATA|NOPTR, $64

// SETUP512 loads the constants of CHECK512 into Z25-Z31 (clobbers R8).
#define SETUP512 \
	MOVL            $0x0f0f0f0f, R8;         \
	VPBROADCASTD    R8, Z31; /* Z31 = 0x0f: a nibble */ \
	VBROADCASTI32X4 ·lookup+0(SB), Z30; /* lookup[0], by p1>>4 */ \
	VBROADCASTI32X4 ·lookup+16(SB), Z29; /* lookup[1], by p1&15 */ \
	VBROADCASTI32X4 ·lookup+32(SB), Z28; /* lookup[2], by c>>4 */ \
	MOVL            $0x60606060, R8;         \
	VPBROADCASTD    R8, Z27; /* Z27 = 0x60 */ \
	MOVL            $0x70707070, R8;         \
	VPBROADCASTD    R8, Z26; /* Z26 = 0x70 */ \
	MOVL            $0x80808080, R8;         \
	VPBROADCASTD    R8, Z25 /* Z25 = 0x80 */

// CHECK512 sets K1 to the flagged octets of the block cur after the block
// prev (clobbers Z3-Z9):
//
//	p1, p2, p3 := prev:cur shifted by 1, 2, 3 octets
//	special := lookup[0][p1>>4] & lookup[1][p1&15] & lookup[2][cur>>4]
//	must := ((p2 -sat 0x60) | (p3 -sat 0x70)) & 0x80 // bit 7: p2 >= 0xE0 || p3 >= 0xF0
//	K1 = special != must
#define CHECK512(cur, prev) \
	VALIGNQ    $6, prev, cur, Z3; /* Z3 = cur shifted up 16 octets, after prev's last 16 */ \
	VPALIGNR   $15, Z3, cur, Z4; /* Z4 = p1 */ \
	VPALIGNR   $14, Z3, cur, Z5; /* Z5 = p2 */ \
	VPALIGNR   $13, Z3, cur, Z6; /* Z6 = p3 */ \
	VPSRLW     $4, Z4, Z7;         \
	VPANDD     Z31, Z7, Z7; /* Z7 = p1 >> 4 */ \
	VPANDD     Z31, Z4, Z8; /* Z8 = p1 & 15 */ \
	VPSRLW     $4, cur, Z9;        \
	VPANDD     Z31, Z9, Z9; /* Z9 = cur >> 4 */ \
	VPSHUFB    Z7, Z30, Z7;        \
	VPSHUFB    Z8, Z29, Z8;        \
	VPSHUFB    Z9, Z28, Z9;        \
	VPTERNLOGD $0x80, Z9, Z8, Z7; /* Z7 = special = Z7 & Z8 & Z9 */ \
	VPSUBUSB   Z27, Z5, Z5; /* bit 7 of Z5: p2 >= 0xE0 */ \
	VPSUBUSB   Z26, Z6, Z6; /* bit 7 of Z6: p3 >= 0xF0 */ \
	VPTERNLOGD $0xa8, Z25, Z6, Z5; /* Z5 = must = (Z5 | Z6) & 0x80 */ \
	VPCMPUB    $4, Z5, Z7, K1  /* K1 = special != must */

// LASTMASK sets K3 = 1<<CX - 1, the mask of a last block of CX < 64
// octets (clobbers R8).
#define LASTMASK \
	MOVQ  $1, R8;  \
	SHLQ  CX, R8;  \
	DECQ  R8;      \
	KMOVQ R8, K3

// The constants of CHECK512 are loaded by the first block that needs them:
// R13 says whether they are (an ASCII text needs none, which saves a
// 64-octet text about 0.6 ns).

// func scanAVX512(p []byte, ctx uint32, _ kernel) int
// Requires: AVX512F, AVX512BW
//
// scanAVX512 checks p after the window ctx (see window3) in blocks of 64
// octets and returns the offset of the first block with a flagged octet,
// or len(p).
TEXT ·scanAVX512(SB), NOSPLIT, $0-40
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), BX
	MOVL ctx+24(FP), AX
	XORL DX, DX           // i := 0
	XORL R13, R13         // the constants are not loaded

	// Z0 = the block before p: ctx's three octets in octets 61..63
	// (every dword holds 0, p3, p2, p1; only the last three octets count).
	SHLL         $8, AX
	VPBROADCASTD AX, Z0
	CMPQ         BX, $64
	JB           last

loop:
	// for ; i+64 <= n; i += 64: block p[i:i+64] in Z1.
	VMOVDQU64 (SI)(DX*1), Z1
	VPMOVB2M  Z1, K2
	KORTESTQ  K2, K2
	JNZ       full

	// An ASCII block: flagged only if the block before ends inside a
	// UTF8-char. Then, while pairs of blocks are ASCII, skip them: one
	// test per 128 octets, and the block before each pair is ASCII.
	VPCMPUB  $6, incompleteT<>(SB), Z0, K1
	KORTESTQ K1, K1
	JNZ      failed
	ADDQ     $64, DX

run:
	LEAQ      128(DX), CX
	CMPQ      CX, BX
	JA        runEnd
	VMOVDQU64 (SI)(DX*1), Z1
	VPORQ     64(SI)(DX*1), Z1, Z2
	VPMOVB2M  Z2, K2
	KORTESTQ  K2, K2
	JNZ       runEnd
	ADDQ      $128, DX
	JMP       run

runEnd:
	VPXORQ Z0, Z0, Z0     // the block before is ASCII: as good as zeros
	JMP    next

full:
	TESTL R13, R13
	JNZ   fullReady
	SETUP512
	MOVL  $1, R13

fullReady:
	CHECK512(Z1, Z0)
	KORTESTQ  K1, K1
	JNZ       failed
	VMOVDQA64 Z1, Z0
	ADDQ      $64, DX

next:
	LEAQ 64(DX), CX
	CMPQ CX, BX
	JBE  loop

last:
	// The r = n-i < 64 octets left, if any: K3 = 1<<r - 1, Z1 = p[i:n]
	// and zeros, flags beyond r dropped (an ASCII block: as above).
	MOVQ       BX, CX
	SUBQ       DX, CX
	JZ         passed
	LASTMASK
	VMOVDQU8.Z (SI)(DX*1), K3, Z1
	VPMOVB2M   Z1, K2
	KORTESTQ   K2, K2
	JNZ        lastFull
	VPCMPUB    $6, incompleteT<>(SB), Z0, K1
	KORTESTQ   K1, K1
	JNZ        failed
	JMP        passed

lastFull:
	TESTL R13, R13
	JNZ   lastReady
	SETUP512

lastReady:
	CHECK512(Z1, Z0)
	KANDQ    K3, K1, K1
	KORTESTQ K1, K1
	JNZ      failed

passed:
	MOVQ BX, ret+32(FP)
	VZEROUPPER
	RET

failed:
	MOVQ DX, ret+32(FP)
	VZEROUPPER
	RET

// func validAVX512Asm(b []byte) bool
// Requires: AVX512F, AVX512BW
//
// validAVX512Asm works like validGeneric: scanAVX512's blocks from an
// empty window, then a last block, b's r = len(b) mod 64 last octets (r
// may be 0) followed by zeros, whose flags all count: the first zero after
// b is flagged exactly when b ends inside a UTF8-char or with C0, C1,
// F5-FF (p1 >= 0xC0, p2 >= 0xE0 or p3 >= 0xF0 before an ASCII octet), and
// the zeros after it only when it is.
TEXT ·validAVX512Asm(SB), NOSPLIT, $0-25
	MOVQ   b_base+0(FP), SI
	MOVQ   b_len+8(FP), BX
	XORL   DX, DX           // i := 0
	XORL   R13, R13         // the constants are not loaded
	VPXORQ Z0, Z0, Z0       // the block before b: nothing
	CMPQ   BX, $64
	JB     last

loop:
	// for ; i+64 <= n; i += 64, as in scanAVX512.
	VMOVDQU64 (SI)(DX*1), Z1
	VPMOVB2M  Z1, K2
	KORTESTQ  K2, K2
	JNZ       full
	VPCMPUB   $6, incompleteT<>(SB), Z0, K1
	KORTESTQ  K1, K1
	JNZ       invalid
	ADDQ      $64, DX

run:
	LEAQ      128(DX), CX
	CMPQ      CX, BX
	JA        runEnd
	VMOVDQU64 (SI)(DX*1), Z1
	VPORQ     64(SI)(DX*1), Z1, Z2
	VPMOVB2M  Z2, K2
	KORTESTQ  K2, K2
	JNZ       runEnd
	ADDQ      $128, DX
	JMP       run

runEnd:
	VPXORQ Z0, Z0, Z0
	JMP    next

full:
	TESTL R13, R13
	JNZ   fullReady
	SETUP512
	MOVL  $1, R13

fullReady:
	CHECK512(Z1, Z0)
	KORTESTQ  K1, K1
	JNZ       invalid
	VMOVDQA64 Z1, Z0
	ADDQ      $64, DX

next:
	LEAQ 64(DX), CX
	CMPQ CX, BX
	JBE  loop

last:
	// The last block: b[i:n] (r = n-i, 0..63 octets) and zeros. ASCII
	// (r = 0 included): flagged only if the block before ends inside a
	// UTF8-char.
	MOVQ       BX, CX
	SUBQ       DX, CX
	LASTMASK
	VMOVDQU8.Z (SI)(DX*1), K3, Z1
	VPMOVB2M   Z1, K2
	KORTESTQ   K2, K2
	JNZ        lastFull
	VPCMPUB    $6, incompleteT<>(SB), Z0, K1
	KORTESTQ   K1, K1
	JNZ        invalid
	JMP        valid

lastFull:
	TESTL R13, R13
	JNZ   lastReady
	SETUP512

lastReady:
	CHECK512(Z1, Z0)
	KORTESTQ K1, K1
	JNZ      invalid

valid:
	MOVB $1, ret+24(FP)
	VZEROUPPER
	RET

invalid:
	MOVB $0, ret+24(FP)
	VZEROUPPER
	RET

// func unmaskAVX512(b []byte, k uint32, ctx uint32, _ kernel) int
// Requires: AVX512F, AVX512BW
//
// unmaskAVX512 is scanAVX512 fused with masking: each block is b[i:i+64]
// XOR k (the key word broadcast; blocks start at multiples of 4), stored
// back, then checked from the register, four blocks a turn (as
// optimized/websocket's masking loop): four blocks that are all ASCII are
// checked with one test (as scanAVX512's runs), which lets ASCII go at
// about the rate of masking alone. After the first flagged block it only
// unmasks the rest of b.
TEXT ·unmaskAVX512(SB), NOSPLIT, $0-48
	MOVQ         b_base+0(FP), SI
	MOVQ         b_len+8(FP), BX
	MOVL         k+24(FP), R9
	MOVL         ctx+28(FP), AX
	XORL         DX, DX           // i := 0
	XORL         R13, R13         // the constants are not loaded
	VPBROADCASTD R9, Z23          // Z23 = the key
	SHLL         $8, AX
	VPBROADCASTD AX, Z0           // the block before b, as in scanAVX512
	CMPQ         BX, $256
	JB           single

quad:
	// for ; i+256 <= n; i += 256: b[i+64k:i+64k+64] ^= key in Z10-Z13,
	// all four stored, then checked.
	VPXORD     (SI)(DX*1), Z23, Z10
	VPXORD     64(SI)(DX*1), Z23, Z11
	VPXORD     128(SI)(DX*1), Z23, Z12
	VPXORD     192(SI)(DX*1), Z23, Z13
	VMOVDQU64  Z10, (SI)(DX*1)
	VMOVDQU64  Z11, 64(SI)(DX*1)
	VMOVDQU64  Z12, 128(SI)(DX*1)
	VMOVDQU64  Z13, 192(SI)(DX*1)
	VPORQ      Z10, Z11, Z1
	VPTERNLOGD $0xfe, Z12, Z13, Z1 // Z1 = Z10 | Z11 | Z12 | Z13
	VPMOVB2M   Z1, K2
	KORTESTQ   K2, K2
	JNZ        quadFull

	// All ASCII: flagged only if the block before ends inside a
	// UTF8-char (then at the first octet), and the next block's is ASCII.
	VPCMPUB  $6, incompleteT<>(SB), Z0, K1
	KORTESTQ K1, K1
	JNZ      failed0
	VPXORQ   Z0, Z0, Z0
	JMP      quadNext

quadFull:
	TESTL R13, R13
	JNZ   quadReady
	SETUP512
	MOVL  $1, R13

quadReady:
	CHECK512(Z10, Z0)
	KORTESTQ K1, K1
	JNZ      failed0
	CHECK512(Z11, Z10)
	KORTESTQ K1, K1
	JNZ      failed1
	CHECK512(Z12, Z11)
	KORTESTQ K1, K1
	JNZ      failed2
	CHECK512(Z13, Z12)
	KORTESTQ K1, K1
	JNZ      failed3
	VMOVDQA64 Z13, Z0

quadNext:
	ADDQ $256, DX
	LEAQ 256(DX), CX
	CMPQ CX, BX
	JBE  quad

single:
	// for ; i+64 <= n; i += 64: up to three more whole blocks. Until a
	// block needs the lookups (R13), an ASCII one is checked as in
	// scanAVX512: with the lookups, ASCII text of 64 to 255 octets took
	// a quarter longer; after one, the lookups come first, so that
	// Latin text pays no test it would fail.
	LEAQ      64(DX), CX
	CMPQ      CX, BX
	JA        last
	VPXORD    (SI)(DX*1), Z23, Z1
	VMOVDQU64 Z1, (SI)(DX*1)
	TESTL     R13, R13
	JNZ       singleReady
	VPMOVB2M  Z1, K2
	KORTESTQ  K2, K2
	JNZ       singleSetup
	VPCMPUB   $6, incompleteT<>(SB), Z0, K1
	KORTESTQ  K1, K1
	JNZ       failed
	VPXORQ    Z0, Z0, Z0
	ADDQ      $64, DX
	JMP       single

singleSetup:
	SETUP512
	MOVL      $1, R13

singleReady:
	CHECK512(Z1, Z0)
	KORTESTQ  K1, K1
	JNZ       failed
	VMOVDQA64 Z1, Z0
	ADDQ      $64, DX
	JMP       single

last:
	// b[i:n] ^= key under the mask K3 of its r octets, then check it
	// (ASCII as above; the octets past r hold the key, so only K3's
	// count).
	MOVQ       BX, CX
	SUBQ       DX, CX
	JZ         passed
	LASTMASK
	VMOVDQU8.Z (SI)(DX*1), K3, Z1
	VPXORD     Z23, Z1, Z1
	VMOVDQU8   Z1, K3, (SI)(DX*1)
	TESTL      R13, R13
	JNZ        lastReady
	VPMOVB2M   Z1, K2
	KTESTQ     K3, K2
	JNZ        lastSetup
	VPCMPUB    $6, incompleteT<>(SB), Z0, K1
	KORTESTQ   K1, K1
	JNZ        failed
	JMP        passed

lastSetup:
	SETUP512

lastReady:
	CHECK512(Z1, Z0)
	KANDQ    K3, K1, K1
	KORTESTQ K1, K1
	JNZ      failed

passed:
	MOVQ BX, ret+40(FP)
	VZEROUPPER
	RET

	// Block k of a turn of four flagged: return i+64k; all four are
	// unmasked, so the rest starts at i+256.
failed3:
	ADDQ $64, DX

failed2:
	ADDQ $64, DX

failed1:
	ADDQ $64, DX

failed0:
	// DX rounded down to a multiple of 256 is i: turns of four start at
	// 0, 256, 512, ...
	MOVQ DX, ret+40(FP)
	ANDQ $-256, DX
	ADDQ $256, DX
	JMP  rest

failed:
	// A single or last block: return i, after unmasking b[i+64:], the
	// blocks not yet unmasked (none if the flagged block was the last).
	MOVQ DX, ret+40(FP)
	ADDQ $64, DX

rest:
	LEAQ      64(DX), CX
	CMPQ      CX, BX
	JA        restLast
	VPXORD    (SI)(DX*1), Z23, Z1
	VMOVDQU64 Z1, (SI)(DX*1)
	ADDQ      $64, DX
	JMP       rest

restLast:
	MOVQ       BX, CX
	SUBQ       DX, CX
	JLE        done
	LASTMASK
	VMOVDQU8.Z (SI)(DX*1), K3, Z1
	VPXORD     Z23, Z1, Z1
	VMOVDQU8   Z1, K3, (SI)(DX*1)

done:
	VZEROUPPER
	RET

// The octet constants of CHECK256, one 32-bit word each, which SETUP256
// broadcasts with one load each.
DATA const0f<>+0x00(SB)/4, $0x0f0f0f0f
DATA const0f<>+0x04(SB)/4, $0x60606060
DATA const0f<>+0x08(SB)/4, $0x70707070
DATA const0f<>+0x0c(SB)/4, $0x80808080
GLOBL const0f<>(SB), RODATA|NOPTR, $16

// SETUP256 loads the constants of CHECK256 into Y9-Y15 (see READY256).
#define SETUP256 \
	VPBROADCASTD   const0f<>+0x00(SB), Y15; /* Y15 = 0x0f */ \
	VBROADCASTI128 ·lookup+0(SB), Y14; /* lookup[0], by p1>>4 */ \
	VBROADCASTI128 ·lookup+16(SB), Y13; /* lookup[1], by p1&15 */ \
	VBROADCASTI128 ·lookup+32(SB), Y12; /* lookup[2], by c>>4 */ \
	VPBROADCASTD   const0f<>+0x04(SB), Y11; /* Y11 = 0x60 */ \
	VPBROADCASTD   const0f<>+0x08(SB), Y10; /* Y10 = 0x70 */ \
	VPBROADCASTD   const0f<>+0x0c(SB), Y9  /* Y9 = 0x80 */

// CHECK256 sets Y6 = special and Y5 = must for the block cur after the
// block prev, as CHECK512 (clobbers Y3-Y8): an octet is flagged where they
// differ.
#define CHECK256(cur, prev) \
	VPERM2I128 $0x21, cur, prev, Y3; /* Y3 = prev's high half, cur's low half */ \
	VPALIGNR   $15, Y3, cur, Y4; /* Y4 = p1 */ \
	VPSRLW     $4, Y4, Y6;           \
	VPAND      Y15, Y6, Y6; /* Y6 = p1 >> 4 */ \
	VPAND      Y15, Y4, Y7; /* Y7 = p1 & 15 */ \
	VPSRLW     $4, cur, Y8;          \
	VPAND      Y15, Y8, Y8; /* Y8 = cur >> 4 */ \
	VPSHUFB    Y6, Y14, Y6;          \
	VPSHUFB    Y7, Y13, Y7;          \
	VPSHUFB    Y8, Y12, Y8;          \
	VPAND      Y7, Y6, Y6;           \
	VPAND      Y8, Y6, Y6; /* Y6 = special */ \
	VPALIGNR   $14, Y3, cur, Y5; /* Y5 = p2 */ \
	VPALIGNR   $13, Y3, cur, Y7; /* Y7 = p3 */ \
	VPSUBUSB   Y11, Y5, Y5; /* bit 7 of Y5: p2 >= 0xE0 */ \
	VPSUBUSB   Y10, Y7, Y7; /* bit 7 of Y7: p3 >= 0xF0 */ \
	VPOR       Y7, Y5, Y5;           \
	VPAND      Y9, Y5, Y5  /* Y5 = must */

// READY256 loads the constants of CHECK256 unless R13 says they are
// loaded: as in the AVX-512 kernels, a text of only ASCII needs none of
// them (each TEXT expands it once per label suffix).
#define READY256(label) \
	TESTL R13, R13; \
	JNZ   label;    \
	SETUP256;       \
	MOVL  $1, R13;  \
label:

// FLAGS256 sets R8 to the flagged octets of the block in Y1 after the
// block in Y0, one bit each.
#define FLAGS256 \
	CHECK256(Y1, Y0);        \
	VPCMPEQB  Y5, Y6, Y6; /* 0xff where not flagged */ \
	VPMOVMSKB Y6, R8;        \
	NOTL      R8

// LASTFLAGS256 sets R8 to the flagged octets among the first CX octets of
// the block in Y1 after the block in Y0, one bit each.
#define LASTFLAGS256 \
	FLAGS256;          \
	MOVL $1, R10;      \
	SHLL CX, R10;      \
	DECL R10;          \
	ANDL R10, R8

// A text of n >= 32 octets whose length is not a multiple of 32 ends with
// r = n mod 32 octets after its last whole block. Copied to a buffer (as
// texts under 16 octets still are, below), they cost a Zen 1 core 12-15 ns
// more than a whole block: the buffer's 32-octet load waits until the
// narrower stores that filled it have reached the cache, since no single
// store holds all its octets (SweepUTF8 in bench/: 17, 31, 33 and 63 octets
// 28-34 ns against 14.6-15.5 at 32 and 64). The kernels instead check the
// last 32 octets of the text, p[n-32:n], a block that overlaps the one
// before by 32-r octets, and keep only the flags of its last r octets
// (TAILFLAGS256). An octet's flag depends on the three octets before it,
// which lie inside the block for every octet kept when r <= 29; for r = 30
// and 31 the first kept octet needs octets before p[n-32], which the block
// before holds at r-3..r-1, shifted up to 29..31 here.
//
// TAILFLAGS256 sets R8 to the flagged octets among the last CX = r octets
// (1 <= r <= 31) of the block in Y1, p[n-32:n], whose whole block before,
// p[i-32:i] with i = n-r, is in Y0 (clobbers CX, R10 and Y0).
#define TAILFLAGS256 \
	CMPQ    CX, $30;              \
	JB      tailPrev;             \
	JEQ     tail30;               \
	VPSLLDQ $1, Y0, Y0; /* r = 31: octets 28..30 to 29..31 */ \
	JMP     tailPrev;             \
tail30:                               \
	VPSLLDQ $2, Y0, Y0; /* r = 30: octets 27..29 to 29..31 */ \
tailPrev:                             \
	FLAGS256;                     \
	NEGL    CX;                   \
	ADDL    $32, CX;              \
	MOVL    $-1, R10;             \
	SHLL    CX, R10; /* the last r octets */ \
	ANDL    R10, R8

// KEPTASCII256 sets R8 to the high bits of the block in Y1, p[n-32:n],
// and jumps to ascii if they are all 0, else to kept if its last CX = r
// octets (1 <= r <= 31) are all ASCII. A block of only ASCII octets cannot
// flag an octet kept: the octet before the first one kept is in the
// block, an ASCII octet that the block before was checked with, which a
// UTF8-char that still wanted a continuation there would have failed.
// When the r octets alone are ASCII, only the first of them can be
// flagged, and only if the text before it, whose whole block before is in
// Y0, ends inside a UTF8-char: the test of an ASCII block. A tail of
// ASCII after non-ASCII text (a frame of JSON, say) then takes that test
// instead of the lookups over 32 octets mostly checked already, as
// segmentio's kernel, which shifts the tail into a block of its own,
// does (the lookups cost 7-8 ns at 33 octets of Latin text that ends in
// one ASCII octet, where segmentio's kernel took 0.6 ns more than at 32;
// SweepUTF8 in bench/). The test of the whole block comes first, so
// ASCII text takes the path it took before.
#define KEPTASCII256(ascii, kept) \
	VPMOVMSKB Y1, R8; \
	TESTL     R8, R8; \
	JZ        ascii; \
	SHLQ      CX, R8; /* octet 32-r's bit to bit 32 */ \
	SHRQ      $32, R8; \
	JZ        kept

// shiftT: the 16 octets at shiftT+48-n, for 16 <= n < 32, are the VPSHUFB
// control that moves octets 32-n..15 of p[n-16:n] to 0..n-17 and zeros
// the rest: together with p[0:16], the n octets of p followed by zeros.
DATA shiftT<>+0x00(SB)/8, $0x8080808080808080
DATA shiftT<>+0x08(SB)/8, $0x8080808080808080
DATA shiftT<>+0x10(SB)/8, $0x0706050403020100
DATA shiftT<>+0x18(SB)/8, $0x0f0e0d0c0b0a0908
DATA shiftT<>+0x20(SB)/8, $0x8080808080808080
DATA shiftT<>+0x28(SB)/8, $0x8080808080808080
GLOBL shiftT<>(SB), RODATA|NOPTR, $48

// HALVES256 sets Y1 to the n = BX octets of p (16 <= n < 32) at SI,
// followed by zeros, from the octets loaded in X1 = p[0:16] and
// X4 = p[n-16:n] (clobbers R8, X4 and X5). No octet outside p is read, and
// no store comes between: a text of 16 to 31 octets needs no buffer.
#define HALVES256 \
	LEAQ        shiftT<>(SB), R8; \
	SUBQ        BX, R8;           \
	VMOVDQU     48(R8), X5;       \
	VPSHUFB     X5, X4, X4;       \
	VINSERTI128 $1, X4, Y1, Y1

// copyShort<> copies CX octets, 1 to 31, from (R10) to (R11) with moves
// that overlap but never reach outside the CX octets of either side
// (clobbers R8, R12, X3, X4).
TEXT ·copyShort<>(SB), NOSPLIT, $0
	CMPQ    CX, $16
	JB      under16
	VMOVDQU (R10), X3
	VMOVDQU -16(R10)(CX*1), X4
	VMOVDQU X3, (R11)
	VMOVDQU X4, -16(R11)(CX*1)
	RET

under16:
	CMPQ CX, $8
	JB   under8
	MOVQ (R10), R8
	MOVQ -8(R10)(CX*1), R12
	MOVQ R8, (R11)
	MOVQ R12, -8(R11)(CX*1)
	RET

under8:
	CMPQ CX, $4
	JB   under4
	MOVL (R10), R8
	MOVL -4(R10)(CX*1), R12
	MOVL R8, (R11)
	MOVL R12, -4(R11)(CX*1)
	RET

under4:
	CMPQ CX, $2
	JB   under2
	MOVW (R10), R8
	MOVW -2(R10)(CX*1), R12
	MOVW R8, (R11)
	MOVW R12, -2(R11)(CX*1)
	RET

under2:
	MOVB (R10), R8
	MOVB R8, (R11)
	RET

// func scanAVX2(p []byte, ctx uint32, _ kernel) int
// Requires: AVX2
//
// scanAVX2 is scanAVX512 with blocks of 32 octets. The octets after the
// last whole block are checked in the last 32 octets of p (TAILFLAGS256);
// a text of 16 to 31 octets is loaded in two halves (HALVES256), and one
// of 1 to 15 octets (which Valid and Write check in Go, and only direct
// calls bring here) is copied to a zeroed buffer on the stack (32 octets
// at (SP)).
TEXT ·scanAVX2(SB), NOSPLIT, $32-40
	MOVQ  p_base+0(FP), SI
	MOVQ  p_len+8(FP), BX
	MOVL  ctx+24(FP), AX
	XORL  DX, DX           // i := 0
	XORL  R13, R13         // the constants are not loaded
	TESTQ BX, BX
	JZ    passed

	// Y0 = the block before p: ctx's three octets in octets 29..31.
	SHLL         $8, AX
	MOVQ         AX, X0
	VPBROADCASTD X0, Y0
	CMPQ         BX, $32
	JB           short

loop:
	// for ; i+32 <= n; i += 32: block p[i:i+32] in Y1.
	VMOVDQU   (SI)(DX*1), Y1
	VPMOVMSKB Y1, R8
	TESTL     R8, R8
	JNZ       full

	// An ASCII block: flagged only if the block before ends inside a
	// UTF8-char. Then, while pairs of blocks are ASCII, skip them: one
	// test per 64 octets, as scanAVX512's runs (ASCII text of 64 to 256
	// octets took 0.9-1.4x segmentio's time on a Zen 1 core with one
	// test per block). Taking the first two blocks as a pair too saved
	// another 15-20% at 64, 128 and 192 octets but cost text that is not
	// ASCII a load and a taken jump per block (7-12% at 64-256 octets of
	// Latin text), so the pairs start after one ASCII block.
	VPSUBUSB incompleteT<>+32(SB), Y0, Y6
	VPTEST   Y6, Y6
	JNZ      failed
	ADDQ     $32, DX

run:
	LEAQ      64(DX), CX
	CMPQ      CX, BX
	JA        runOne
	VMOVDQU   (SI)(DX*1), Y1
	VPOR      32(SI)(DX*1), Y1, Y2
	VPMOVMSKB Y2, R8
	TESTL     R8, R8
	JNZ       runEnd
	ADDQ      $64, DX
	JMP       run

runOne:
	// Fewer than 64 octets left after an ASCII block: one more whole
	// block if it fits and is ASCII, then straight to the tail, the
	// block before it ASCII (as good as zeros). Through runEnd and next
	// instead, the second of two ASCII blocks took six taken jumps, and
	// ASCII text of 64-200 octets 17-34% longer (ascii-one-block.txt in
	// docs/perf/issue31-2026-12-05d). Y0 still held the block before the
	// first ASCII block, which passed the ASCII block's test, so for the
	// octets the tail keeps it would flag nothing zeros do not (a
	// complete block has no octet >= 0xE0 at 30 or >= 0xF0 at 29, the
	// only ones the tail reads from it); zeros keep Y0 what it says.
	LEAQ      32(DX), CX
	CMPQ      CX, BX
	JA        runTail
	VMOVDQU   (SI)(DX*1), Y1
	VPMOVMSKB Y1, R8
	TESTL     R8, R8
	JNZ       runEnd
	ADDQ      $32, DX

runTail:
	VPXOR Y0, Y0, Y0
	JMP   tailStart

runEnd:
	VPXOR Y0, Y0, Y0 // the block before is ASCII: as good as zeros
	JMP   next

full:
	READY256(fullReady)
	CHECK256(Y1, Y0)
	VPXOR   Y5, Y6, Y6
	VPTEST  Y6, Y6
	JNZ     failed
	VMOVDQA Y1, Y0
	ADDQ    $32, DX

next:
	LEAQ 32(DX), CX
	CMPQ CX, BX
	JBE  loop

	// The r = n-i < 32 octets left, if any, in p[n-32:n], which needs
	// the lookups only if those r octets are not all ASCII
	// (KEPTASCII256): so for r = 30, 31 too, which took the lookups and
	// 25-30 ns on a Zen 1 core at 62-63, 94-95 and 126-127 octets of
	// ASCII, against 17-19 at the lengths around.
tailStart:
	MOVQ    BX, CX
	SUBQ    DX, CX
	JZ      passed
	VMOVDQU -32(SI)(BX*1), Y1
	KEPTASCII256(passed, keptASCII)

tail:
	READY256(tailReady)
	TAILFLAGS256
	JNZ failed
	JMP passed

keptASCII:
	VPSUBUSB incompleteT<>+32(SB), Y0, Y6
	VPTEST   Y6, Y6
	JNZ      failed
	JMP      passed

short:
	// 1 <= n < 32: one block of p's n octets and zeros. All ASCII, it is
	// flagged only if ctx ends inside a UTF8-char.
	CMPQ      BX, $16
	JB        viaStack
	VMOVDQU   (SI), X1
	VMOVDQU   -16(SI)(BX*1), X4
	HALVES256
	VPMOVMSKB Y1, R8
	TESTL     R8, R8
	JNZ       lastBlock
	VPSUBUSB  incompleteT<>+32(SB), Y0, Y6
	VPTEST    Y6, Y6
	JNZ       failed
	JMP       passed

viaStack:
	VPXOR   Y1, Y1, Y1
	VMOVDQU Y1, (SP)
	MOVQ    SI, R10
	MOVQ    SP, R11
	MOVQ    BX, CX
	CALL    ·copyShort<>(SB)
	VMOVDQU (SP), Y1

lastBlock:
	READY256(lastReady)
	MOVQ BX, CX
	LASTFLAGS256
	JNZ  failed

passed:
	MOVQ BX, ret+32(FP)
	VZEROUPPER
	RET

failed:
	MOVQ DX, ret+32(FP)
	VZEROUPPER
	RET

// onesT: 32 octets 0xff then 32 zeros; the 32 octets at onesT+m are
// 0xff in their first 32-m.
DATA onesT<>+0x00(SB)/8, $0xffffffffffffffff
DATA onesT<>+0x08(SB)/8, $0xffffffffffffffff
DATA onesT<>+0x10(SB)/8, $0xffffffffffffffff
DATA onesT<>+0x18(SB)/8, $0xffffffffffffffff
DATA onesT<>+0x20(SB)/8, $0
DATA onesT<>+0x28(SB)/8, $0
DATA onesT<>+0x30(SB)/8, $0
DATA onesT<>+0x38(SB)/8, $0
GLOBL onesT<>(SB), RODATA|NOPTR, $64

// TURN128 is a turn of an ASCII run: if the four 32-octet blocks at
// i = idx unmasked with the key key (all loaded and unmasked before any is
// stored) fit in b and are all ASCII, it stores them and adds 128 to idx;
// otherwise it stores nothing and jumps to exit. Clobbers CX, R8, Y1, Y4-Y6
// and the temporaries t1, t2.
#define TURN128(idx, key, t1, t2, exit) \
	LEAQ      128(idx), CX;       \
	CMPQ      CX, BX;             \
	JA        exit;               \
	VPXOR     (SI)(idx*1), key, Y1; \
	VPXOR     32(SI)(idx*1), key, Y4; \
	VPXOR     64(SI)(idx*1), key, Y5; \
	VPXOR     96(SI)(idx*1), key, Y6; \
	VPOR      Y1, Y4, t1;         \
	VPOR      Y5, Y6, t2;         \
	VPOR      t1, t2, t1;         \
	VPMOVMSKB t1, R8;             \
	TESTL     R8, R8;             \
	JNZ       exit;               \
	VMOVDQU   Y1, (SI)(idx*1);    \
	VMOVDQU   Y4, 32(SI)(idx*1);  \
	VMOVDQU   Y5, 64(SI)(idx*1);  \
	VMOVDQU   Y6, 96(SI)(idx*1);  \
	ADDQ      $128, idx

// RUNALIGN is unmaskAVX2's run of ASCII blocks for a b that does not
// start at a 32-octet boundary: DX is a block boundary i after an ASCII
// block with at least 512 octets after it (so the first turn fits), R10 =
// m = (b+i) mod 32 > 0, R9 the key word of the blocks and
// Y2 its broadcast. The run unmasks and tests turns of four 32-octet
// blocks at 32-octet boundaries, from A = i+32-m, with the key word
// rotated to A (Y7). The first turn also takes b[i:i+32] (Y8), which
// covers the m octets before A and overlaps the turn's first block: all
// five are loaded and unmasked before any is stored, so the octets they
// share are stored twice with the same value. A turn that is not all
// ASCII, or that does not fit in b, is not stored. It then goes back to
// the last block boundary g = R11+m-32 below the end R11 of the last turn
// stored (none stored: DX stays i) and masks b[g:R11] again, so that from
// g on b is as the blocks loop expects; if b[g:g+32] reaches past b, the
// octets from g are left to the last 32 octets of b, stored from (SP) with
// the same values. Clobbers CX, R8, R11, R12, Y1, Y3-Y8.
#define RUNALIGN \
	MOVQ         DX, R11;            \
	SUBQ         R10, R11;           \
	ADDQ         $32, R11; /* R11 = A: the first turn fits */ \
	MOVL         R10, CX;            \
	SHLL         $3, CX;             \
	MOVL         R9, R12;            \
	ROLL         CX, R12; /* the key word at A */ \
	MOVQ         R12, X7;            \
	VPBROADCASTD X7, Y7;             \
	VPXOR        (SI)(DX*1), Y2, Y8; \
	VPXOR        (SI)(R11*1), Y7, Y1; \
	VPXOR        32(SI)(R11*1), Y7, Y4; \
	VPXOR        64(SI)(R11*1), Y7, Y5; \
	VPXOR        96(SI)(R11*1), Y7, Y6; \
	VPOR         Y1, Y8, Y3;         \
	VPOR         Y4, Y3, Y3;         \
	VPOR         Y5, Y3, Y3;         \
	VPOR         Y6, Y3, Y3;         \
	VPMOVMSKB    Y3, R8;             \
	TESTL        R8, R8;             \
	JNZ          alignDone;          \
	VMOVDQU      Y8, (SI)(DX*1);     \
	VMOVDQU      Y1, (SI)(R11*1);    \
	VMOVDQU      Y4, 32(SI)(R11*1);  \
	VMOVDQU      Y5, 64(SI)(R11*1);  \
	VMOVDQU      Y6, 96(SI)(R11*1);  \
	ADDQ         $128, R11;          \
alignTurn:                               \
	TURN128(R11, Y7, Y3, Y8, alignBack); \
	JMP          alignTurn;          \
alignBack:                               \
	LEAQ         -32(R11)(R10*1), DX; /* g */ \
	LEAQ         32(DX), CX;         \
	CMPQ         CX, BX;             \
	JA           alignDone;          \
	LEAQ         onesT<>(SB), CX;    \
	VMOVDQU      (CX)(R10*1), Y3;    \
	VPAND        Y2, Y3, Y3; /* the key on b[g:R11], zeros after */ \
	VPXOR        (SI)(DX*1), Y3, Y1; \
	VMOVDQU      Y1, (SI)(DX*1);     \
alignDone:

// func unmaskAVX2(b []byte, k uint32, ctx uint32, _ kernel) int
// Requires: AVX2
//
// unmaskAVX2 is unmaskAVX512 with blocks of 32 octets, and scanAVX2's
// ways with the octets after the last whole block. Those are unmasked in
// the last 32 octets of b, loaded before anything is stored (the stores of
// the block before would otherwise hold the load back until they reach the
// cache) and kept on the stack until the end; the octets it shares with
// the block before are then stored twice, with the same value. A text of
// 16 to 31 octets is unmasked in two halves, both loaded before either is
// stored, and one of 1 to 15 octets (which Unmask unmasks in Go, and only
// direct calls bring here) goes through a buffer on the stack, copied back
// once unmasked.
TEXT ·unmaskAVX2(SB), NOSPLIT, $32-48
	MOVQ  b_base+0(FP), SI
	MOVQ  b_len+8(FP), BX
	MOVL  k+24(FP), R9
	MOVL  ctx+28(FP), AX
	XORL  DX, DX           // i := 0
	XORL  R13, R13         // the constants are not loaded
	TESTQ BX, BX
	JZ    passed
	MOVQ         R9, X2
	VPBROADCASTD X2, Y2    // Y2 = the key
	SHLL         $8, AX
	MOVQ         AX, X0
	VPBROADCASTD X0, Y0    // the block before b, as in scanAVX2

	// Y3 = rotKey(k, n) broadcast: the key of the blocks that end at n.
	MOVL         R9, R10
	MOVL         BX, CX
	SHLL         $3, CX
	RORL         CX, R10
	MOVQ         R10, X3
	VPBROADCASTD X3, Y3
	CMPQ         BX, $32
	JB           short

	// The last 32 octets of b, unmasked, kept at (SP) for the end.
	VPXOR   -32(SI)(BX*1), Y3, Y1
	VMOVDQU Y1, (SP)

loop:
	// b[i:i+32] ^= key, then check it.
	VPXOR     (SI)(DX*1), Y2, Y1
	VMOVDQU   Y1, (SI)(DX*1)
	VPMOVMSKB Y1, R8
	TESTL     R8, R8
	JNZ       full

	// An ASCII block: flagged only if the block before ends inside a
	// UTF8-char. A run of ASCII blocks may start after it (runStart).
	VPSUBUSB incompleteT<>+32(SB), Y0, Y6
	VPTEST   Y6, Y6
	JNZ      failed
	VMOVDQA  Y1, Y0
	ADDQ     $32, DX
	LEAQ     128(DX), CX
	CMPQ     CX, BX
	JBE      runStart

next:
	LEAQ 32(DX), CX
	CMPQ CX, BX
	JBE  loop

last:
	// The r = n-i < 32 octets left, if any: store b[n-32:n] from (SP),
	// then check it as scanAVX2 does.
	MOVQ      BX, CX
	SUBQ      DX, CX
	JZ        passed
	VMOVDQU (SP), Y1
	VMOVDQU Y1, -32(SI)(BX*1)
	KEPTASCII256(passed, keptASCII)

tail:
	READY256(tailReady)
	TAILFLAGS256
	JNZ unmasked
	JMP passed

keptASCII:
	VPSUBUSB incompleteT<>+32(SB), Y0, Y6
	VPTEST   Y6, Y6
	JNZ      unmasked
	JMP      passed

short:
	// 1 <= n < 32: b[0:n] ^= key, then one block of its n octets and
	// zeros, checked as in scanAVX2.
	CMPQ      BX, $16
	JB        viaStack
	VPXOR     (SI), X2, X1
	VPXOR     -16(SI)(BX*1), X3, X4
	VMOVDQU   X1, (SI)
	VMOVDQU   X4, -16(SI)(BX*1)
	HALVES256
	VPMOVMSKB Y1, R8
	TESTL     R8, R8
	JNZ       lastBlock
	VPSUBUSB  incompleteT<>+32(SB), Y0, Y6
	VPTEST    Y6, Y6
	JNZ       unmasked
	JMP       passed

viaStack:
	VPXOR   Y1, Y1, Y1
	VMOVDQU Y1, (SP)
	MOVQ    SI, R10
	MOVQ    SP, R11
	MOVQ    BX, CX
	CALL    ·copyShort<>(SB)
	VPXOR   (SP), Y2, Y1
	VMOVDQU Y1, (SP)
	MOVQ    SP, R10
	MOVQ    SI, R11
	MOVQ    BX, CX
	CALL    ·copyShort<>(SB)

lastBlock:
	READY256(lastReady)
	MOVQ BX, CX
	LASTFLAGS256
	JNZ  unmasked

passed:
	MOVQ BX, ret+40(FP)
	VZEROUPPER
	RET

unmasked:
	// A block failed after all of b was unmasked: return i.
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET

failed:
	// A whole block failed: return i, after unmasking b[i+32:], the
	// whole blocks one by one, then the last 32 octets from (SP) if
	// n > 32 and n mod 32 != 0 (n < 32 fails in the last block only).
	MOVQ DX, ret+40(FP)
	ADDQ $32, DX

rest:
	LEAQ    32(DX), CX
	CMPQ    CX, BX
	JA      restLast
	VPXOR   (SI)(DX*1), Y2, Y1
	VMOVDQU Y1, (SI)(DX*1)
	ADDQ    $32, DX
	JMP     rest

restLast:
	CMPQ    DX, BX
	JAE     done
	VMOVDQU (SP), Y1
	VMOVDQU Y1, -32(SI)(BX*1)

done:
	VZEROUPPER
	RET

runStart:
	// While four blocks are ASCII once unmasked, they take one test and
	// are stored after it (a turn that is not all ASCII stores nothing
	// and goes back to single blocks): masking and checking ASCII text
	// one block at a time took 1.3-1.4x as long as Mask then Valid from
	// 2 to 64 KiB (SweepUnmask in bench/). The single blocks' paths
	// above take no jump into it, as they end (a jump taken per block
	// cost text of 64 to 160 octets 1-2 ns).
	//
	// In a run, where block boundaries no longer matter (ASCII needs no
	// context), the stores go to 32-octet boundaries when b does not
	// start at one and at least 512 octets remain (RUNALIGN): a store
	// that crosses a cache line costs about twice one that does not,
	// and one of two did (ASCII text from 2 to 64 KiB one octet past a
	// 64-octet boundary took 1.3x as long as Mask then Valid, whose
	// stores are aligned). Leaving such a run costs a reload that waits
	// for the stores before it (see RUNALIGN), which made ASCII text of
	// 160 to 256 octets 20-60% slower: shorter runs stay unaligned.
	LEAQ 384(CX), CX // i+512
	CMPQ CX, BX
	JA   run
	LEAQ (SI)(DX*1), R10
	ANDL $31, R10
	JNZ  runAlign

run:
	TURN128(DX, Y2, Y7, Y8, runEnd)
	JMP run

runEnd:
	VPXOR Y0, Y0, Y0 // the block before is ASCII: as good as zeros
	JMP   next

runAlign:
	RUNALIGN
	JMP runEnd

full:
	READY256(fullReady)
	CHECK256(Y1, Y0)
	VPXOR   Y5, Y6, Y6
	VPTEST  Y6, Y6
	JNZ     failed
	VMOVDQA Y1, Y0
	ADDQ    $32, DX
	LEAQ    32(DX), CX
	CMPQ    CX, BX
	JBE     loop
	JMP     last
