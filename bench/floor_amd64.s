//go:build !purego

#include "textflag.h"

// func maskOneFloor(b []byte, key uint32, pos int)
TEXT ·maskOneFloor(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), DI
	MOVL key+24(FP), AX
	XORB AX, (DI)
	RET
