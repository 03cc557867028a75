//go:build !purego

#include "textflag.h"

// func xorBlocksNEON(dst, src []byte, k uint32)
//
// The key word is copied to each 32-bit lane of V4; each turn loads 64
// octets of src into V0-V3, XORs them with V4 and stores them to dst.
// len(src) is a positive multiple of 64 (xorKeyNEON's prefix).
TEXT ·xorBlocksNEON(SB), NOSPLIT, $0-52
	MOVD	dst_base+0(FP), R0
	MOVD	src_base+24(FP), R1
	MOVD	src_len+32(FP), R2
	MOVWU	k+48(FP), R3
	VDUP	R3, V4.S4

loop:
	VLD1.P	64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VEOR	V4.B16, V0.B16, V0.B16
	VEOR	V4.B16, V1.B16, V1.B16
	VEOR	V4.B16, V2.B16, V2.B16
	VEOR	V4.B16, V3.B16, V3.B16
	VST1.P	[V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)
	SUBS	$64, R2, R2
	BNE	loop
	RET
