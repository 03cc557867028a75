package constructs

// ArithI8 is every binary operator on int8.
func ArithI8(a, b int8) (add, sub, mul, and, or, xor, andNot int8, lt, le, gt, ge, eq, ne bool) {
	return a + b, a - b, a * b, a & b, a | b, a ^ b, a &^ b, a < b, a <= b, a > b, a >= b, a == b, a != b
}

// ArithU8 is every binary operator on uint8.
func ArithU8(a, b uint8) (add, sub, mul, and, or, xor, andNot uint8, lt, le, gt, ge, eq, ne bool) {
	return a + b, a - b, a * b, a & b, a | b, a ^ b, a &^ b, a < b, a <= b, a > b, a >= b, a == b, a != b
}

// ArithI16 is every binary operator on int16.
func ArithI16(a, b int16) (add, sub, mul, and, or, xor, andNot int16, lt, le, gt, ge bool) {
	return a + b, a - b, a * b, a & b, a | b, a ^ b, a &^ b, a < b, a <= b, a > b, a >= b
}

// ArithU16 is every binary operator on uint16.
func ArithU16(a, b uint16) (add, sub, mul, and, or, xor, andNot uint16, lt, le, gt, ge bool) {
	return a + b, a - b, a * b, a & b, a | b, a ^ b, a &^ b, a < b, a <= b, a > b, a >= b
}

// ArithI32 is every binary operator on int32.
func ArithI32(a, b int32) (add, sub, mul, and, or, xor, andNot int32, lt, le, gt, ge bool) {
	return a + b, a - b, a * b, a & b, a | b, a ^ b, a &^ b, a < b, a <= b, a > b, a >= b
}

// ArithU32 is every binary operator on uint32.
func ArithU32(a, b uint32) (add, sub, mul, and, or, xor, andNot uint32, lt, le, gt, ge bool) {
	return a + b, a - b, a * b, a & b, a | b, a ^ b, a &^ b, a < b, a <= b, a > b, a >= b
}

// ArithI64 is every binary operator on int64.
func ArithI64(a, b int64) (add, sub, mul, and, or, xor, andNot int64, lt, le, gt, ge bool) {
	return a + b, a - b, a * b, a & b, a | b, a ^ b, a &^ b, a < b, a <= b, a > b, a >= b
}

// ArithU64 is every binary operator on uint64.
func ArithU64(a, b uint64) (add, sub, mul, and, or, xor, andNot uint64, lt, le, gt, ge bool) {
	return a + b, a - b, a * b, a & b, a | b, a ^ b, a &^ b, a < b, a <= b, a > b, a >= b
}

// ArithInt is every binary operator on int, uint and uintptr.
func ArithInt(a, b int, c, d uint, e, f uintptr) (int, int, int, uint, uint, uint, uintptr, uintptr, bool, bool) {
	return a + b, a * b, a &^ b, c - d, c * d, c ^ d, e + f, e * f, a < b, c < d
}

// Unary is -, ^ and ! on several types.
func Unary(a int8, b uint16, c int64, d bool) (int8, int8, uint16, uint16, int64, int64, bool) {
	return -a, ^a, -b, ^b, -c, ^c, !d
}

// DivI8 is / and % on int8, which panic on a zero divisor and wrap for
// -128 / -1.
func DivI8(a, b int8) (int8, int8) { return a / b, a % b }

// DivU8 is / and % on uint8.
func DivU8(a, b uint8) (uint8, uint8) { return a / b, a % b }

// DivI64 is / and % on int64.
func DivI64(a, b int64) (int64, int64) { return a / b, a % b }

// DivU32 is / and % on uint32.
func DivU32(a, b uint32) (uint32, uint32) { return a / b, a % b }

// DivSmall divides by a small divisor, zero included.
func DivSmall(a int32, b uint8) (int32, int32) { d := int32(b % 4); return a / d, a % d }

// DivConst divides by constants, which the compiler turns into
// multiplications.
func DivConst(a int64, b uint64) (int64, int64, uint64, uint64, int64) {
	return a / 7, a % 7, b / 10, b % 0xffff, a / -3
}

// Shifts shifts by unsigned counts of every width, past the width too.
func Shifts(a int32, b uint32, s uint8, t uint64) (int32, int32, uint32, uint32, int32, uint32) {
	return a << s, a >> s, b << s, b >> s, a >> t, b << t
}

// ShiftSigned shifts by a signed count: negative counts panic.
func ShiftSigned(a uint64, s int) (uint64, uint64) { return a << s, a >> s }

// ShiftSmall shifts by small counts of a wider type than the operand.
func ShiftSmall(a uint8, b int16, s uint) (uint8, int16, uint8, int16) {
	s %= 20
	return a << s, b >> s, a >> s, b << s
}

// ConvI8 converts an int8 to every integer type.
func ConvI8(a int8) (uint8, int16, uint16, int32, uint32, int64, uint64, int, uint, uintptr) {
	return uint8(a), int16(a), uint16(a), int32(a), uint32(a), int64(a), uint64(a), int(a), uint(a), uintptr(a)
}

// ConvU64 converts a uint64 to every integer type.
func ConvU64(a uint64) (int8, uint8, int16, uint16, int32, uint32, int64, int, uint) {
	return int8(a), uint8(a), int16(a), uint16(a), int32(a), uint32(a), int64(a), int(a), uint(a)
}

// ConvI32 converts an int32 through narrower and wider types and back.
func ConvI32(a int32) (int64, uint64, int16, int32, uint8, int32) {
	return int64(a), uint64(a), int16(a), int32(int16(a)), uint8(a), int32(uint32(uint16(a)))
}

// Bools combines bools, with && and || short-circuits.
func Bools(a, b, c bool, x int) (bool, bool, bool, bool) {
	return a && b || c, (a || b) && !c, a != b, a == (x > 3) && (x < 10 || b)
}

// Consts uses typed and untyped constants of every width.
func Consts(a uint64) (uint64, int8, uint16, int64) {
	const big = 1<<63 | 5
	return a ^ big, int8(-128) + int8(a), uint16(0xffff) * uint16(a), -1 << 62 >> 3
}
