.Lloop:
sub x2, x2, #64
neg x7, x2
asr x7, x7, #63
and x7, x7, #0x40
ldp w8, w9, [x0]
add x8, x6, x8
add x9, x9, x5
ldp w10, w11, [x0, #8]
add x10, x4, x10
add x11, x11, x3
ldp w12, w13, [x0, #16]
add x8, x12, x8
add x9, x13, x9
ldp w12, w13, [x0, #24]
add x10, x12, x10
add x11, x13, x11
ldp w12, w13, [x0, #32]
add x8, x12, x8
add x9, x13, x9
ldp w12, w13, [x0, #40]
add x10, x12, x10
add x11, x13, x11
ldp w12, w13, [x0, #48]
ldp w14, w15, [x0, #56]
add x6, x12, x8
add x5, x13, x9
add x4, x14, x10
add x3, x15, x11
add x0, x0, x7
sub x1, x1, #64
cmp x1, #64
b.ge .Lloop
