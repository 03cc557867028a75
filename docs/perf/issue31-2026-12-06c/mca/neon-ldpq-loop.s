ldp q0, q1, [x1]
ldp q2, q3, [x1, #32]
eor v0.16b, v0.16b, v4.16b
eor v1.16b, v1.16b, v4.16b
eor v2.16b, v2.16b, v4.16b
eor v3.16b, v3.16b, v4.16b
stp q0, q1, [x0]
stp q2, q3, [x0, #32]
add x1, x1, #64
add x0, x0, #64
subs x2, x2, #64
b.ne -44
