ldp x14, x15, [x3]
eor x14, x14, x9
eor x15, x15, x9
ldp x16, x17, [x3, #16]
eor x16, x16, x9
eor x17, x17, x9
nop
nop
nop
nop
str x14, [x0]
str x15, [x0, #8]
str x16, [x0, #16]
str x17, [x0, #24]
sub x4, x4, #32
add x3, x3, #32
sub x1, x1, #32
add x0, x0, #32
cmp x4, #33
b.lt 8
cmp x1, #33
b.ge -84
