.Lloop:
sub x2, x2, #64
neg x3, x2
asr x3, x3, #63
and x3, x3, #0x40
ldp x5, x6, [x0]
ldp x7, x8, [x0, #16]
ldp x9, x10, [x0, #32]
ldp x11, x12, [x0, #48]
add x0, x0, x3
sub x1, x1, #64
adds x3, x4, x5
adcs x3, x6, x3
adcs x3, x7, x3
adcs x3, x8, x3
adcs x3, x9, x3
adcs x3, x10, x3
adcs x3, x11, x3
adcs x3, x12, x3
adc x5, xzr, xzr
add x4, x5, x3
cmp x1, #64
b.ge .Lloop
