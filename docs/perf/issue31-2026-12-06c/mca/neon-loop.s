ld1 { v0.16b, v1.16b, v2.16b, v3.16b }, [x1], #64
eor v0.16b, v0.16b, v4.16b
eor v1.16b, v1.16b, v4.16b
eor v2.16b, v2.16b, v4.16b
eor v3.16b, v3.16b, v4.16b
st1 { v0.16b, v1.16b, v2.16b, v3.16b }, [x0], #64
subs x2, x2, #64
b.ne -24
