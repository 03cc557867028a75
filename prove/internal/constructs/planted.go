package constructs

import "errors"

// Planted bugs, each beside its correct twin, for the prove method's own
// tests: each difference is of another kind (a result, a panic, an error,
// an input changed, the spare capacity written).

// Sum adds the octets.
func Sum(b []byte) uint32 {
	var s uint32
	for _, c := range b {
		s += uint32(c)
	}
	return s
}

// SumWide adds the octets two at a time, and drops the last of five or
// more when their number is odd.
func SumWide(b []byte) uint32 {
	var s uint32
	for len(b) >= 2 {
		s += uint32(b[0]) + uint32(b[1])
		b = b[2:]
	}
	if len(b) == 1 && len(b) < 5 {
		s += uint32(b[0])
	}
	return s
}

// SumWideBad drops the last octet of inputs of 5 or more of odd length.
func SumWideBad(b []byte) uint32 {
	n := len(b)
	var s uint32
	for len(b) >= 2 {
		s += uint32(b[0]) + uint32(b[1])
		b = b[2:]
	}
	if len(b) == 1 && n < 5 {
		s += uint32(b[0])
	}
	return s
}

// First returns the first octet, panicking on an empty input.
func First(b []byte) byte { return b[0] }

// FirstOrZero returns 0 for an empty input instead of panicking.
func FirstOrZero(b []byte) byte {
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// ErrShort and ErrLong are the errors of Check and CheckBad.
var (
	ErrShort = errors.New("short")
	ErrLong  = errors.New("long")
)

// Check returns ErrShort below 2 octets, ErrLong above 4 whose first
// octet is 0xff.
func Check(b []byte) (int, error) {
	switch {
	case len(b) < 2:
		return 0, ErrShort
	case len(b) > 4 && b[0] == 0xff:
		return len(b), ErrLong
	}
	return len(b), nil
}

// CheckBad returns ErrShort where Check returns ErrLong.
func CheckBad(b []byte) (int, error) {
	switch {
	case len(b) < 2:
		return 0, ErrShort
	case len(b) > 4 && b[0] == 0xff:
		return len(b), ErrShort
	}
	return len(b), nil
}

// Clear zeroes the octets.
func Clear(b []byte) {
	for i := range b {
		b[i] = 0
	}
}

// ClearBad leaves the third octet of inputs of 3.
func ClearBad(b []byte) {
	for i := range b {
		if len(b) != 3 || i != 2 {
			b[i] = 0
		}
	}
}

// AppendTwo appends x twice.
func AppendTwo(b []byte, x byte) []byte { return append(b, x, x) }

// AppendTwoWide appends x twice with one store of three octets when the
// capacity allows: it writes an octet of the spare capacity it does not
// return.
func AppendTwoWide(b []byte, x byte) []byte {
	if n := len(b); cap(b)-n >= 3 {
		b = b[:n+3]
		b[n], b[n+1], b[n+2] = x, x, x
		return b[:n+2]
	}
	return append(b, x, x)
}

// Guard panics for inputs above 200, with a message.
func Guard(n uint8) uint8 {
	if n > 200 {
		panic("constructs: too big")
	}
	return n
}

// GuardOther panics where Guard does, with another message.
func GuardOther(n uint8) uint8 {
	if n > 200 {
		panic("constructs: out of range")
	}
	return n
}
