package constructs

import "errors"

// Index reads and writes a slice at an index the input chooses (out of
// range panics).
func Index(b []byte, i int, v byte) byte {
	b[i] = v
	return b[i/2] + b[len(b)-1]
}

// IndexUint16 indexes a slice of uint16 with a uint8 index.
func IndexUint16(s []uint16, i uint8) (uint16, int) {
	s[i%4] += 7
	return s[i], len(s)
}

// Slicing slices with two and three indices (out of range panics).
func Slicing(b []byte, lo, hi uint8) (int, int, byte) {
	s := b[lo:hi]
	t := b[lo:hi:hi]
	if len(s) > 0 {
		s[0] = 99
	}
	return len(s), cap(t), b[0]
}

// SliceOfSlice reslices, past the length within the capacity too.
func SliceOfSlice(b []byte) (int, int, []byte) {
	s := b[:0]
	s = s[:cap(s)]
	t := s[len(s)/2:]
	return len(s), cap(t), t[:len(t)/2]
}

// Append appends in place (with spare capacity) or into a new array, a
// byte, several, a slice and a string.
func Append(b []byte, x byte) ([]byte, []byte, int) {
	c := append(b, x)
	c = append(c, x+1, x+2)
	c = append(c, b...)
	d := append(b[:len(b)/2], "ab"...)
	return c, d, cap(c) - len(c)
}

// AppendNil appends to nil and empty slices.
func AppendNil(x uint16) ([]uint16, []uint16, bool) {
	var a []uint16
	b := append(a, x)
	c := append(a[:0:0], b...)
	return b, c, a == nil
}

// Copy copies between overlapping and separate slices.
func Copy(b []byte, n uint8) (int, int, []byte) {
	k := copy(b[1:], b)
	dst := make([]byte, int(n%8))
	m := copy(dst, b)
	return k, m, dst
}

// Arrays uses array values: a parameter, a local, an index the input
// chooses, comparison and copy by value.
func Arrays(a [4]byte, i uint8) ([4]byte, byte, bool) {
	b := a
	b[i%4] = 42
	var grid [3][3]int
	grid[i%3][(i/3)%3] = int(a[0])
	return b, a[i%5], a == b && grid[1][1] == 0
}

// Point is a struct for Structs.
type Point struct {
	X, Y int16
	Tag  [2]byte
}

// Structs builds, copies, compares and changes structs through pointers.
func Structs(p Point, d int16) (Point, bool, *Point) {
	q := p
	q.X += d
	r := &q
	r.Tag[1] = byte(d)
	moved := p != q
	s := new(Point)
	*s = Point{Y: p.Y, X: q.X}
	return q, moved, s
}

// Move is a method with a pointer receiver.
func (p *Point) Move(d int16) { p.X += d; p.Y -= d }

// Sum is a method with a value receiver.
func (p Point) Sum() int { return int(p.X) + int(p.Y) }

// Methods calls methods, by value and by pointer, and through a method
// value.
func Methods(p Point, d int16) (Point, int, int) {
	p.Move(d)
	f := p.Sum
	p.Move(1)
	return p, p.Sum(), f()
}

// Pointers takes addresses of locals and elements, and dereferences a
// nil pointer when asked to.
func Pointers(a [3]int32, nilDeref bool) (int32, bool) {
	p := &a[1]
	*p *= 2
	q := &a[1]
	var r *int32
	if nilDeref {
		return *r, false
	}
	return a[1] + *q, p == q
}

// Closures captures variables and changes them.
func Closures(n uint8) (int, int) {
	count := 0
	inc := func(by int) { count += by }
	for i := range int(n % 5) {
		inc(i)
	}
	mk := func(k int) func() int { return func() int { return k * count } }
	return count, mk(3)()
}

var (
	// ErrOdd and ErrBig are sentinel errors, as the pairs' packages have.
	ErrOdd = errors.New("odd")
	ErrBig = errors.New("big")
	// aliasOdd is ErrOdd under another name, as the optimized packages
	// re-export the reference's errors.
	aliasOdd = ErrOdd
)

// Errors returns sentinel errors, compares them and asserts on them.
func Errors(n uint8) (int, error, bool) {
	var err error
	switch {
	case n > 200:
		err = ErrBig
	case n%2 == 1:
		err = aliasOdd
	}
	_, isString := err.(interface{ Error() string })
	return int(n), err, err == ErrOdd || isString && err != ErrBig
}

// ErrorText calls Error on an error of a known dynamic type.
func ErrorText(n uint8) string {
	err := ErrOdd
	if n > 100 {
		err = ErrBig
	}
	return err.Error()
}

// table is a package variable computed by a function at initialization,
// as utf8valid's DFA is.
var table = func() (t [16]uint32) {
	for i := range t {
		t[i] = uint32(i*i) ^ 0x5a5a
	}
	return t
}()

// greeting is a constant string a function indexes.
const greeting = "hello, prover"

// Globals reads a table and a string at indices the input chooses.
func Globals(i uint8) (uint32, byte, int, string) {
	return table[i%16], greeting[int(i)%len(greeting)], len(greeting), greeting[i%3 : 5]
}

// Builtins uses min, max, clear and len on several types.
func Builtins(a, b int8, c, d uint32, s []byte) (int8, int8, uint32, uint32, []byte) {
	clear(s[:len(s)/2])
	return min(a, b), max(a, b, 3), min(c, d), max(c, d), s
}

// Panics panics with a string, an error or an int, or returns.
func Panics(n uint8) int {
	switch n % 4 {
	case 0:
		panic("zero")
	case 1:
		panic(ErrOdd)
	case 2:
		panic(int(n))
	}
	return int(n)
}

// Make makes slices of lengths the input does not choose.
func Make(n uint8) ([]uint32, []byte, int) {
	a := make([]uint32, 3, 5)
	a[n%3] = uint32(n)
	b := make([]byte, 4)
	b = append(b, byte(a[0]))
	return a, b, cap(a)
}
