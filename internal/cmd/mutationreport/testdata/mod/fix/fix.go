// Package fix is the fixture mutationreport's test re-mutates: fix.json is
// what gremlins would report for it.
package fix

// Greeting is a constant string: gremlins' `+` to `-` does not compile.
const Greeting = "hello, " + "world"

// Clamp limits n to [lo, hi].
func Clamp(n, lo, hi int) int {
	if n < lo {
		return lo
	}
	if n > hi {
		return hi
	}
	return n
}

// Neg negates n.
func Neg(n int) int {
	return -n
}

// Double doubles n.
func Double(n int) int {
	return n * 2
}
